/**
 * Strict JSON reading (DECISIONS 2): UTF-8, no byte-order mark, no duplicate keys, standard JSON only
 * (no NaN, comments or trailing commas), an object at the top level.
 *
 * Fast path: V8's JSON.parse plus a key count, so a valid file costs little more than parsing it.
 * Only a file that fails is re-read with momoa, a location-aware parser, to say where and why.
 */
import { isUtf8 } from 'node:buffer';
import { parse as parseWithLocations, type AnyNode } from '@humanwhocodes/momoa';
import type { Finding } from '../diagnostics/diagnostic.ts';
import { childPointer } from './pointer.ts';

export interface StrictParseResult {
  /** The text as decoded (BOM and invalid bytes included, so positions match the file). */
  text: string;
  /** The parsed value when the text is syntactically JSON (even if other findings exist), else undefined. */
  value: unknown;
  /** True when `value` is a plain object that the schema and rules can look at. */
  isObject: boolean;
  findings: Finding[];
}

const BOM = '\uFEFF';

export function parseStrictJson(input: Uint8Array | string): StrictParseResult {
  const findings: Finding[] = [];
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
    if (!isUtf8(input)) findings.push(invalidUtf8(text));
  }

  // A BOM is reported, then read past (as whitespace) so that the rest of the file is still checked.
  let parseText = text;
  if (text.startsWith(BOM)) {
    findings.push({
      rule: 'json/bom',
      severity: 'error',
      message: 'the file starts with a byte-order mark (BOM)',
      hint: 'Save the file as UTF-8 without BOM.',
      pointer: '',
      line: 1,
      column: 1,
    });
    parseText = ' ' + text.slice(1);
  }

  let value: unknown;
  try {
    value = JSON.parse(parseText);
  } catch (err) {
    findings.push(syntaxFinding(parseText, String((err as Error).message)));
    return { text, value: undefined, isObject: false, findings };
  }

  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject) {
    const at = firstNonSpace(parseText);
    findings.push({
      rule: 'json/not-object',
      severity: 'error',
      message: `the file holds ${describeJsonType(value)} where a record object { … } is expected`,
      hint: 'A record file contains exactly one JSON object: start it with { and end it with }.',
      pointer: '',
      ...at,
    });
  }

  if (countKeysInText(parseText) !== countKeysInValue(value)) findings.push(...duplicateKeyFindings(parseText));
  return { text, value, isObject, findings };
}

/**
 * Number of object members written in (already valid) JSON text: the colons outside strings. Hops between
 * quotes with indexOf (vectorised in V8) instead of visiting every character; this runs on every record.
 */
export function countKeysInText(text: string): number {
  let n = 0;
  let pos = 0;
  let colon = text.indexOf(':'); // the next colon at or after pos, found once (no rescans: linear time)
  for (;;) {
    const quote = text.indexOf('"', pos);
    const end = quote === -1 ? text.length : quote;
    if (colon !== -1 && colon < pos) colon = text.indexOf(':', pos);
    while (colon !== -1 && colon < end) {
      n++;
      colon = text.indexOf(':', colon + 1);
    }
    if (quote === -1) return n;
    // Skip the string: its closing quote is the next one not escaped by an odd run of backslashes.
    let close = text.indexOf('"', quote + 1);
    for (;;) {
      let backslashes = 0;
      while (text.charCodeAt(close - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    pos = close + 1;
  }
}

/** Number of members in a parsed value; fewer than in the text means JSON.parse dropped a duplicate. */
function countKeysInValue(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += countKeysInValue(v);
  } else {
    for (const k in value) {
      n += 1 + countKeysInValue((value as Record<string, unknown>)[k]);
    }
  }
  return n;
}

function duplicateKeyFindings(text: string): Finding[] {
  const out: Finding[] = [];
  const doc = parseWithLocations(text, { mode: 'json' });
  const visit = (node: AnyNode, pointer: string): void => {
    if (node.type === 'Object') {
      const seen = new Map<string, number>();
      for (const member of node.members) {
        const name = member.name.type === 'String' ? member.name.value : String(member.name.name);
        const first = seen.get(name);
        if (first === undefined) {
          seen.set(name, member.name.loc.start.line);
        } else {
          out.push({
            rule: 'json/duplicate-key',
            severity: 'error',
            message: `the field "${name}" appears twice in ${pointer === '' ? 'the top level' : pointer} (first on line ${first}); JSON readers would silently keep only one`,
            hint: `Keep one "${name}" and delete or merge the other.`,
            pointer: childPointer(pointer, name),
            line: member.name.loc.start.line,
            column: member.name.loc.start.column,
          });
        }
        visit(member.value, childPointer(pointer, name));
      }
    } else if (node.type === 'Array') {
      node.elements.forEach((el, i) => visit(el.value, childPointer(pointer, i)));
    }
  };
  visit(doc.body, '');
  return out;
}

function syntaxFinding(text: string, v8Message: string): Finding {
  // V8 names the offset ("… in JSON at position 12 (line 1 column 13)"); without one, the input ended early.
  // Some messages ("Unexpected token 'N'") carry no position: momoa, a location-aware parser, finds it.
  const at = /at position (\d+)/.exec(v8Message);
  const offset = at ? Number(at[1]) : /end of JSON input/i.test(v8Message) ? text.length : momoaErrorOffset(text);
  const reason = v8Message.replace(/\s*(in JSON )?at position.*$/s, '').replace(/,\s*".*" is not valid JSON$/s, '');
  const { message, hint } = explainSyntaxError(text, offset, reason);
  return { rule: 'json/syntax', severity: 'error', message, hint, pointer: '', ...lineColumnAt(text, offset) };
}

function momoaErrorOffset(text: string): number {
  try {
    parseWithLocations(text, { mode: 'json' });
  } catch (err) {
    return (err as { offset?: number }).offset ?? text.length;
  }
  return text.length;
}

/** Turns the parser's "unexpected token" into the usual human mistake behind it. */
function explainSyntaxError(text: string, offset: number, reason: string): { message: string; hint: string } {
  const rest = text.slice(offset);
  const before = text.slice(0, offset).trimEnd();
  if (text.trim() === '') {
    return { message: 'the file is empty', hint: 'A record file contains one JSON object: { … }.' };
  }
  if (/^-?(NaN|Infinity)/.test(rest)) {
    return {
      message: `${/^-?(NaN|Infinity)/.exec(rest)![0]} is not a JSON number`,
      hint: 'Write a finite number, or null, or the value as a string.',
    };
  }
  if (/^[}\]]/.test(rest) && before.endsWith(',')) {
    return { message: 'trailing comma before the closing bracket', hint: 'Delete the comma after the last item.' };
  }
  if (/^\/[/*]/.test(rest)) {
    return { message: 'comments are not allowed in JSON', hint: 'Delete the comment, or move the note into a string field.' };
  }
  if (rest.startsWith("'")) {
    return { message: 'single quotes are not allowed in JSON', hint: 'Use double quotes (") around strings and keys.' };
  }
  if (offset >= text.trimEnd().length) {
    return {
      message: 'the file ends before the JSON value is complete',
      hint: 'Look for a missing closing } or ], or an unterminated string.',
    };
  }
  if (before.length > 0 && canParse(before)) {
    return {
      message: 'unexpected text after the end of the JSON object',
      hint: 'A record file holds exactly one JSON value: delete what follows its closing }.',
    };
  }
  if (/Expected ':'/.test(reason)) {
    return { message: 'a colon is missing after the field name', hint: 'Write each field as "name": value.' };
  }
  if (/^["\d\-\[{tfn]/.test(rest) && /["\d}\]el]$/.test(before)) {
    return { message: 'a comma is missing before this point', hint: 'Separate fields and list items with commas.' };
  }
  if (/^[A-Za-z_$]/.test(rest) && /[{,]$/.test(before)) {
    return { message: 'a field name is not in double quotes', hint: 'Write keys as strings: "name": value.' };
  }
  const ch = rest.codePointAt(0)!;
  if (ch < 0x20) {
    return {
      message: `control character U+${ch.toString(16).toUpperCase().padStart(4, '0')} inside a string`,
      hint: 'Escape it (a line break is written \\n, a tab \\t).',
    };
  }
  return {
    message: `not valid JSON here: ${reason.charAt(0).toLowerCase() + reason.slice(1)}`,
    hint: 'Check the punctuation just before this point: a missing comma or colon, an unquoted key, or an unescaped quote or control character inside a string.',
  };
}

function canParse(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function invalidUtf8(decoded: string): Finding {
  const at = lineColumnAt(decoded, Math.max(0, decoded.indexOf('\uFFFD')));
  return {
    rule: 'json/encoding',
    severity: 'error',
    message: 'the file is not valid UTF-8',
    hint: 'Save the file with UTF-8 encoding (not Latin-1 or UTF-16).',
    pointer: '',
    ...at,
  };
}

function firstNonSpace(text: string): { line: number; column: number } {
  return lineColumnAt(text, text.search(/\S|$/));
}

/** 1-based line and column (in UTF-16 code units, as editors count) of a string offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return `a boolean (${value})`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
