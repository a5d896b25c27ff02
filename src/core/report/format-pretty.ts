/**
 * The human report: problems grouped by file, `path:line:col rule message`, the hint beneath, a summary line.
 * Paths are shown relative to the working directory so terminals and editors can open them.
 */
import { relative } from 'node:path';
import type { ArchiveReport } from '../archive/validate-archive.ts';
import { isError } from '../diagnostics/diagnostic.ts';

export interface PrettyOptions {
  color?: boolean;
  /** Directory that displayed paths are relative to (default: the working directory). */
  cwd?: string;
}

type Paint = (s: string) => string;
const ansi = (open: number, close: number): Paint => (s) => `\u001b[${open}m${s}\u001b[${close}m`;

export function displayPath(root: string, path: string, cwd = process.cwd()): string {
  return relative(cwd, `${root}/${path}`).split('\\').join('/');
}

export function formatPretty(report: Pick<ArchiveReport, 'root' | 'files' | 'summary'>, { color = false, cwd }: PrettyOptions = {}): string {
  const id: Paint = (s) => s;
  const bold = color ? ansi(1, 22) : id;
  const dim = color ? ansi(2, 22) : id;
  const red = color ? ansi(31, 39) : id;
  const yellow = color ? ansi(33, 39) : id;
  const green = color ? ansi(32, 39) : id;
  const cyan = color ? ansi(36, 39) : id;

  const lines: string[] = [];
  for (const file of report.files) {
    if (file.diagnostics.length === 0) continue;
    const path = displayPath(report.root, file.path, cwd);
    lines.push(bold(path));
    for (const d of file.diagnostics) {
      const severity = isError(d) ? red('error') : yellow('warning');
      lines.push(`  ${path}:${d.line}:${d.column} ${severity} ${cyan(d.rule)} ${d.message}`);
      lines.push(dim(`    fix: ${d.hint}`));
    }
    lines.push('');
  }
  const s = report.summary;
  const counts = `${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}`;
  lines.push(
    s.invalid > 0
      ? red(bold(`✖ ${s.invalid} of ${s.files} file${s.files === 1 ? '' : 's'} invalid (${counts})`))
      : green(bold(`✔ ${s.files} file${s.files === 1 ? '' : 's'} valid`)) + (s.warnings > 0 ? ` (${counts})` : ''),
  );
  return lines.join('\n') + '\n';
}
