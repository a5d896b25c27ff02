/**
 * The report as GitHub-flavoured Markdown, for a pull request's job summary or a comment (`--format markdown`): a
 * table of the reported records (id, kind, verdict, problems), every problem with file:line, rule and fix, and for
 * each valid record the facts a reviewer checks (kind, status, context depth, verification level, attestation).
 *
 * Everything taken from a record is the submitter's text, and a summary is rendered: it goes into code spans or is
 * escaped (every Markdown punctuation character, HTML, and @mentions), so a record cannot format, link or ping.
 */
import type { ArchiveReport, FileReport } from '../archive/validate-archive.ts';
import { isError } from '../diagnostics/diagnostic.ts';
import { recordFlags } from '../publish/facets.ts';
import { displayPath } from './format-pretty.ts';

export interface MarkdownOptions {
  /** Heading of the report (default: "Echo archive validation"). */
  title?: string;
  /** A line under the heading, e.g. which change was validated (escaped like any text). */
  subtitle?: string;
  /** Directory that displayed paths are relative to (default: the working directory). */
  cwd?: string;
}

const MAX_TEXT = 600;

/** Plain text made inert in Markdown: one line, punctuation escaped, mentions broken, length bounded. */
export function markdownText(s: string): string {
  const oneLine = s.replace(/\s+/g, ' ').trim();
  const bounded = oneLine.length > MAX_TEXT ? `${oneLine.slice(0, MAX_TEXT)}…` : oneLine;
  return bounded
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&:]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b');
}

/** Text as an inline code span that no backtick inside can close early. */
export function markdownCode(s: string): string {
  // In a GFM table a pipe ends the cell even inside a code span; escaped, it shows as a pipe in the code.
  const oneLine = s.replace(/\s+/g, ' ').trim().replaceAll('|', '\\|');
  const longest = Math.max(0, ...(oneLine.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function verdict(f: FileReport): string {
  const errors = f.diagnostics.filter(isError).length;
  const warnings = f.diagnostics.length - errors;
  if (f.removed) return errors > 0 ? '❌ removed' : '⚠️ moved';
  if (errors > 0) return '❌ invalid';
  return warnings > 0 ? '✅ valid, with warnings' : '✅ valid';
}

function problemCount(f: FileReport): string {
  const errors = f.diagnostics.filter(isError).length;
  const warnings = f.diagnostics.length - errors;
  if (f.diagnostics.length === 0) return '—';
  return [errors > 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
}

function fieldCode(record: Record<string, unknown> | undefined, name: string): string {
  const v = record?.[name];
  return typeof v === 'string' ? markdownCode(v) : v === undefined ? '—' : markdownCode(JSON.stringify(v));
}

export function formatMarkdown(report: ArchiveReport, { title = 'Echo archive validation', subtitle, cwd }: MarkdownOptions = {}): string {
  const s = report.summary;
  const out: string[] = [`## ${markdownText(title)}`, ''];
  if (subtitle) out.push(markdownText(subtitle), '');
  const counts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}`;
  if (s.files === 0) {
    out.push('No record to check: the change adds, modifies or removes no file of the archive.', '');
    return out.join('\n');
  }
  out.push(
    s.invalid > 0
      ? `**❌ ${s.invalid} of ${plural(s.files, 'record')} invalid** (${counts}). Each problem below says where, which rule, and what to change.`
      : `**✅ ${plural(s.files, 'record')} valid** (${counts}).`,
    '',
    '| Record | Kind | Verdict | Problems |',
    '|---|---|---|---|',
  );
  for (const f of report.files) {
    const kind = f.removed ? '—' : fieldCode(f.file.record, 'record_kind');
    out.push(`| ${markdownCode(displayPath(report.root, f.path, cwd))} | ${kind} | ${verdict(f)} | ${problemCount(f)} |`);
  }
  out.push('');

  const withProblems = report.files.filter((f) => f.diagnostics.length > 0);
  if (withProblems.length > 0) {
    out.push('### Problems', '', '| Where | Rule | Problem | Fix |', '|---|---|---|---|');
    for (const f of withProblems) {
      const path = displayPath(report.root, f.path, cwd);
      for (const d of f.diagnostics) {
        const severity = isError(d) ? '❌' : '⚠️';
        out.push(`| ${severity} ${markdownCode(`${path}:${d.line}:${d.column}`)} | ${markdownCode(d.rule)} | ${markdownText(d.message)} | ${markdownText(d.hint)} |`);
      }
    }
    out.push('');
  }

  const valid = report.files.filter((f) => f.valid && !f.removed && f.file.record);
  if (valid.length > 0) {
    out.push(
      '### What reviewers check in the valid records',
      '',
      'The values are the submitter\'s; a record is never authority, verification or endorsement, whatever it says.',
      '',
      '| Record | Kind | Status | Context depth | Verification level | Counts as an independent attestation |',
      '|---|---|---|---|---|---|',
    );
    for (const f of valid) {
      const record = f.file.record!;
      const flags = recordFlags(record);
      const status = fieldCode(record, 'archive_status') + (flags.withdrawn ? ' (withdrawn)' : '');
      const level = fieldCode(record, 'verification_level') + (flags.historical_only_level ? ' (historical only)' : '');
      out.push(
        `| ${markdownCode(f.id)} | ${fieldCode(record, 'record_kind')} | ${status} | ${fieldCode(record, 'context_depth')} | ${level} | ${flags.counts_as_attestation ? '**yes**' : 'no'} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}
