/**
 * Markdown drafts ↔ records. A draft is front matter with the record's fields (YAML, or JSON after `---json`) and a
 * Markdown body that is the `echo` text, so long text is written as Markdown rather than as an escaped JSON string.
 *
 * The body is the echo with one final newline added (editors add one; it is taken off again). An echo that cannot
 * live in a body unchanged (empty, or holding a carriage return) stays in the front matter, as does every other
 * field; a draft with an `echo` field and a body too is refused. Draft → record → draft gives the same JSON value for
 * every record, and the same bytes for a record already in the canonical layout (canonical-layout.ts).
 */
import type { Diagnostic, Finding } from '../diagnostics/diagnostic.ts';
import { buildSourceMap, type SourceMap } from '../json/source-map.ts';
import { parseStrictJson } from '../json/strict-parse.ts';
import { inSchemaOrder } from '../record/canonical-layout.ts';
import type { JsonObject } from '../rules/rule.ts';
import { splitDraft } from './front-matter.ts';
import { parseYamlData, stringifyYamlData } from './safe-yaml.ts';

export interface ReadDraft {
  /** The record, when the draft could be read (it may still be invalid: run the validator). */
  record?: JsonObject;
  /** What reading found, placed in the draft. */
  findings: Diagnostic[];
  /** Places a validator finding (by its JSON pointer) in the draft. */
  locate(finding: Finding): Diagnostic;
}

/** A finding with no place of its own is reported at the draft's first line. */
function atStart(f: Finding): Diagnostic {
  return { ...f, line: f.line ?? 1, column: f.column ?? 1 };
}

export function readDraft(text: string): ReadDraft {
  const split = splitDraft(text);
  if (!split.draft) return { findings: split.findings.map(atStart), locate: atStart };
  const { language, matter, body, bodyLine } = split.draft;

  let value: unknown;
  let map: SourceMap;
  let plainScalars = new Map<string, string>();
  const findings: Finding[] = [];
  if (language === 'json') {
    const parsed = parseStrictJson(matter);
    findings.push(...parsed.findings.filter((f) => f.rule !== 'json/not-object'));
    map = buildSourceMap(matter);
    value = parsed.findings.length === 0 ? parsed.value : undefined;
  } else {
    const parsed = parseYamlData(matter);
    findings.push(...parsed.findings);
    map = parsed.map;
    value = parsed.value;
    plainScalars = parsed.plainScalars;
  }
  // An empty front matter is an empty record (the validator then says what is missing).
  if (value === null && findings.length === 0) value = {};

  const echoFromBody = body !== '';
  const locate = (f: Finding): Diagnostic => {
    if (f.line !== undefined && f.column !== undefined) return { ...f, line: f.line, column: f.column };
    if (echoFromBody && (f.pointer === '/echo' || f.pointer.startsWith('/echo/'))) return { ...f, line: bodyLine, column: 1 };
    return { ...f, ...yamlHint(f, plainScalars.get(f.pointer)), ...map.locate(f.pointer, f.at) };
  };

  if (value === undefined) return { findings: findings.map(atStart), locate };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    findings.push({
      rule: 'draft/front-matter',
      severity: 'error',
      message: 'the front matter is not a set of fields (a mapping of names to values)',
      hint: 'Write one `name: value` line per field of the record.',
      pointer: '',
      line: 2,
      column: 1,
    });
    return { findings: findings.map(atStart), locate };
  }

  const record = value as JsonObject;
  if (echoFromBody) {
    if (Object.hasOwn(record, 'echo')) {
      findings.push({
        rule: 'draft/echo-twice',
        severity: 'error',
        message: 'the echo is given twice: as an `echo` field in the front matter and as the Markdown body',
        hint: 'Keep one: delete the `echo` field (the body below the closing --- is the echo), or empty the body.',
        pointer: '/echo',
        ...map.locate('/echo', 'key'),
      });
      return { findings: findings.map(locate), locate };
    }
    record.echo = body.endsWith('\n') ? body.slice(0, -1) : body;
  }
  return { record, findings: findings.map(locate), locate };
}

/**
 * A schema complaint about a plain YAML scalar often comes from YAML's reading of it: `yes` is text in YAML 1.2,
 * `3.0` is the number 3. The fix then says how to write what was meant.
 */
function yamlHint(f: Finding, written: string | undefined): { hint?: string } {
  if (written === undefined || !f.rule.startsWith('schema/')) return {};
  const value = readsAs(written);
  const why =
    value === 'text'
      ? `(In a draft, ${written} is the text "${written}": YAML 1.2 has no yes/no booleans. Write true or false for a boolean.)`
      : `(In a draft, ${written} unquoted is read as ${value}. To keep it as text, quote it: "${written}".)`;
  return { hint: `${f.hint} ${why}` };
}

function readsAs(written: string): string {
  if (/^(?:y|yes|n|no|on|off)$/i.test(written)) return 'text';
  if (/^(?:true|false)$/i.test(written)) return 'a boolean';
  if (/^(?:~|null)$/i.test(written)) return 'null';
  return 'a number';
}

/** Whether an echo can be the Markdown body and come back unchanged. */
function bodyEcho(echo: unknown): echo is string {
  return typeof echo === 'string' && echo !== '' && !echo.includes('\r');
}

const HEADER = '# The record\'s fields (YAML). The echo is the Markdown below the closing "---".\n';

/** The Markdown draft of a record (fields in the schema's order). */
export function recordToDraft(record: JsonObject): string {
  const fields = { ...(inSchemaOrder(record) as JsonObject) };
  let body = '';
  if (bodyEcho(fields.echo)) {
    body = fields.echo + '\n';
    delete fields.echo;
  }
  return `---\n${HEADER}${stringifyYamlData(fields)}---\n${body}`;
}
