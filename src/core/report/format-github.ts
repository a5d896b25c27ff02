/**
 * GitHub Actions workflow commands. GitHub shows only about ten annotations per step, so the first ten problems
 * become annotations and one more says how many were left out; the full report follows in the log.
 */
import type { ArchiveReport } from '../archive/validate-archive.ts';
import { isError } from '../diagnostics/diagnostic.ts';
import { displayPath } from './format-pretty.ts';

export const MAX_ANNOTATIONS = 10;

function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

export function formatGithub(report: ArchiveReport, cwd?: string): string {
  const all = report.files.flatMap((f) => f.diagnostics.map((d) => ({ f, d })));
  // Errors first: if anything is cut, it should be warnings.
  all.sort((a, b) => Number(isError(b.d)) - Number(isError(a.d)));
  const lines = all.slice(0, MAX_ANNOTATIONS).map(({ f, d }) => {
    const props = [
      `file=${escapeProperty(displayPath(report.root, f.path, cwd))}`,
      `line=${d.line}`,
      `col=${d.column}`,
      `title=${escapeProperty(d.rule)}`,
    ].join(',');
    return `::${isError(d) ? 'error' : 'warning'} ${props}::${escapeData(`${d.message}\nfix: ${d.hint}`)}`;
  });
  const rest = all.length - MAX_ANNOTATIONS;
  if (rest > 0) {
    const errors = all.slice(MAX_ANNOTATIONS).filter(({ d }) => isError(d)).length;
    lines.push(
      `::${errors > 0 ? 'error' : 'warning'} title=${escapeProperty('echo-archive validate')}::${escapeData(
        `${rest} more problem${rest === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}) not shown as annotations: see the full report in the log.`,
      )}`,
    );
  }
  return lines.length > 0 ? lines.join('\n') + '\n' : '';
}
