/**
 * validate_record: the archive's core validator (src/core/archive/check-record.ts: the schema and every record rule,
 * as `npm run validate` and the build run them) on one record given inline. Records it links to are read from the
 * site, so that cross-record rules see them as the archive would.
 */
import { checkRecord } from '../../core/archive/check-record.ts';
import { nextConventionalPaths, recordIdOf, resolveArchiveLink } from '../../core/archive/paths.ts';
import { isError, type Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import { locateFindings } from '../../core/diagnostics/locate.ts';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import type { ArchiveRecord, JsonObject } from '../../core/rules/rule.ts';
import { formatReport } from '../../builder/report.ts';
import { render, S, stringArg, ToolInputError, type ArchiveTool } from '../tool.ts';

const diagnosticSchema = S.obj(
  {
    rule: S.str('the rule id'),
    severity: S.str('error or warning', { enum: ['error', 'warning'] }),
    message: S.str('what is wrong, in plain words'),
    hint: S.str('what to change'),
    pointer: S.str('JSON pointer to the place'),
    line: S.int('line in the text'),
    column: S.int('column in the text'),
  },
  ['rule', 'severity', 'message', 'hint', 'pointer', 'line', 'column'],
);
export const DIAGNOSTICS_SCHEMA = S.arr(diagnosticSchema, 'the diagnostics, in the validator\'s order');

export function wireDiagnostics(diagnostics: readonly Diagnostic[]) {
  return diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, message: d.message, hint: d.hint, pointer: d.pointer, line: d.line, column: d.column }));
}

function strings(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, into);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, into);
  return into;
}

export const validateRecord: ArchiveTool = {
  name: 'validate_record',
  title: 'Validate a record',
  description:
    'Run the archive\'s own validator (the JSON Schema and every record rule, as npm run validate and the site build run them) on one Echo record given inline, as if it were a file of the archive; records it links to are read from the site. Answers valid or not, with each diagnostic in plain words. Validation checks form and rules, not truth.',
  readOnly: true,
  inputSchema: S.obj(
    {
      record: { type: ['object', 'string'], description: 'the record: a JSON object, or its exact text (then strict JSON is checked too)' },
      path: S.str('the archive path it would have, e.g. 2026/echo-2026-11-21-000016.json (default: the next free name)'),
    },
    ['record'],
  ),
  outputSchema: S.obj(
    {
      valid: S.bool('no error-level diagnostic'),
      path: S.str('the archive path it was judged as'),
      errors: S.int('error-level diagnostics'),
      warnings: S.int('warning-level diagnostics'),
      diagnostics: DIAGNOSTICS_SCHEMA,
      report: S.report,
    },
    ['valid', 'path', 'errors', 'warnings', 'diagnostics', 'report'],
  ),
  async run(args, ctx) {
    const given = args.record;
    const text = typeof given === 'string' ? given : given !== null && typeof given === 'object' && !Array.isArray(given) ? JSON.stringify(given, null, 2) + '\n' : undefined;
    if (text === undefined) throw new ToolInputError('"record" must be the record: a JSON object or its text');
    const index = await ctx.site.publicIndex();
    const byPath = new Map(index.entries.map((e) => [String(e.archive_path ?? ''), e]));
    const path = stringArg(args, 'path') ?? nextConventionalPaths([...byPath.keys()].filter(Boolean), new Date(), 1)[0]!;
    const parsed = parseStrictJson(Buffer.from(text, 'utf8'));
    const findings = [...parsed.findings];
    if (parsed.isObject) {
      const record = parsed.value as JsonObject;
      // The records it links to, read from the site (the rules look them up by archive path).
      const linked = new Map<string, ArchiveRecord>();
      for (const s of strings(record, new Set())) {
        const p = resolveArchiveLink(s);
        const entry = p === undefined ? undefined : byPath.get(p);
        if (!entry || linked.has(p!)) continue;
        const raw = parseStrictJson((await ctx.site.get(entry.url)).bytes);
        linked.set(p!, { path: p!, id: entry.id, ...(raw.isObject ? { record: raw.value as JsonObject } : {}) });
      }
      const file: ArchiveRecord = { path, id: recordIdOf(path), record };
      findings.push(...checkRecord(record, file, { recordAt: (p) => (p === path ? file : linked.get(p)) }));
    } else if (parsed.findings.length === 0) {
      throw new ToolInputError('"record" must be a JSON object');
    }
    const diagnostics = locateFindings(findings, text);
    const errors = diagnostics.filter(isError).length;
    const structured = {
      valid: errors === 0,
      path,
      errors,
      warnings: diagnostics.length - errors,
      diagnostics: wireDiagnostics(diagnostics),
      report: formatReport(path, diagnostics, 'pretty', false),
    };
    return { structured, text: render(structured.report, structured) };
  },
};
