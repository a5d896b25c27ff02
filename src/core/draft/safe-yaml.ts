/**
 * YAML front matter read as data, and only as data (the `yaml` package, YAML 1.2 core schema):
 * - no tags (`!!binary`, `!!timestamp`, `!foo`): a tag asks the parser to build something other than JSON;
 * - no anchors or aliases: they expand (the "billion laughs" blow-up) and nothing in a record needs them;
 * - unique keys, and every key a string (`1:`, `true:`, `null:` or `[a]:` are refused, not stringified);
 * - no merge keys (`<<` is an ordinary key), numbers finite (`.nan`, `.inf` and 1e999 have no JSON form);
 * - dates and `yes`/`no`/`on`/`off` stay the strings written (YAML 1.2 has no timestamps or such booleans).
 * The result is the JSON value, a map from JSON pointers to positions in the text, and the problems found.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, stringify, type Document, type DocumentOptions, type Node, type ParseOptions, type SchemaOptions } from 'yaml';
import type { Finding } from '../diagnostics/diagnostic.ts';
import { childPointer } from '../json/pointer.ts';
import { sourceMapOf, type Position, type SourceEntry, type SourceMap } from '../json/source-map.ts';

const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.2',
  schema: 'core',
  customTags: [],
  uniqueKeys: true,
  merge: false,
  strict: true,
  prettyErrors: false,
  keepSourceTokens: false,
};

export interface YamlData {
  /** The JSON value, or undefined when a problem made it unusable. */
  value: unknown;
  /** Positions of values and keys by JSON pointer (lines of `text`, from 1). */
  map: SourceMap;
  findings: Finding[];
  /**
   * Plain (unquoted) scalars whose reading may surprise a contributor, by pointer, as written: words YAML 1.1 took
   * for booleans (`yes`, `off` …, text in YAML 1.2) and numbers, booleans or null where text may have been meant.
   */
  plainScalars: Map<string, string>;
}

const BOOLEAN_WORDS_OF_YAML_1_1 = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;

/** Line and column (from 1) of offsets in `text`: line starts found once, then a binary search per offset. */
export function positionsIn(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

function problem(rule: string, message: string, hint: string, at: Position, pointer = ''): Finding {
  return { rule, severity: 'error', message, hint, pointer, line: at.line, column: at.column };
}

export function parseYamlData(text: string): YamlData {
  const findings: Finding[] = [];
  const entries = new Map<string, SourceEntry>();
  const plainScalars = new Map<string, string>();
  const positionOf = positionsIn(text);
  const where = (offset: number | undefined) => positionOf(offset ?? 0);
  const map: SourceMap = sourceMapOf(entries);

  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, PARSE_OPTIONS);
  } catch (err) {
    findings.push(problem('draft/yaml', `the front matter is not YAML: ${(err as Error).message}`, 'Correct the YAML syntax.', { line: 1, column: 1 }));
    return { value: undefined, map, findings, plainScalars };
  }
  for (const e of doc.errors) {
    const at = where(e.pos[0]);
    const message = e.message.split('\n')[0]!;
    if (e.code === 'DUPLICATE_KEY') {
      findings.push(problem('draft/duplicate-key', 'a key appears twice in the same mapping', 'Keep one of the two: YAML, like JSON here, allows each key once.', at));
    } else {
      findings.push(problem('draft/yaml', `the front matter is not valid YAML: ${message}`, 'Correct the YAML syntax at this place (indentation and `key: value` pairs are the usual suspects).', at));
    }
  }

  let clean = findings.length === 0;
  const walk = (node: Node | null, pointer: string, key?: Position): unknown => {
    const at = where(node?.range?.[0]);
    if (!entries.has(pointer)) entries.set(pointer, key ? { key, value: at } : { value: at });
    if (node === null) return null;
    if (isAlias(node)) {
      clean = false;
      findings.push(problem('draft/alias', `an alias (*${node.source}) repeats another value`, 'Write the value out again: aliases and anchors (&name, *name) are not accepted in a draft.', at, pointer));
      return undefined;
    }
    if (node.anchor) {
      clean = false;
      findings.push(problem('draft/alias', `an anchor (&${node.anchor}) names a value for reuse`, 'Remove the anchor: aliases and anchors (&name, *name) are not accepted in a draft.', at, pointer));
    }
    if (node.tag) {
      clean = false;
      findings.push(
        problem('draft/tag', `the tag ${node.tag.replace('tag:yaml.org,2002:', '!!')} asks for a special type`, 'Remove the tag: a draft holds plain strings, numbers, booleans, null, lists and mappings (quote a value to keep it a string).', at, pointer),
      );
    }
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as Node | null;
        const keyAt = where(keyNode?.range?.[0]);
        if (!isScalar(keyNode) || typeof keyNode.value !== 'string') {
          clean = false;
          const shown = isScalar(keyNode) ? String(keyNode.source ?? keyNode.value) : 'a list or mapping';
          findings.push(problem('draft/key-type', `the key ${shown} is not a string`, `Quote the key ("${shown}") or correct it: every field name is a string.`, keyAt, pointer));
          continue;
        }
        const name = keyNode.value;
        const child = childPointer(pointer, name);
        Object.defineProperty(out, name, { value: walk(pair.value as Node | null, child, keyAt), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => walk(item as Node | null, childPointer(pointer, i)));
    if (isScalar(node)) {
      const v = node.value;
      if (typeof v === 'number' && !Number.isFinite(v)) {
        clean = false;
        findings.push(problem('draft/number', `${node.source ?? String(v)} is not a finite number`, 'JSON has no NaN or infinity: write a number, or quote the value to keep it as text.', at, pointer));
        return undefined;
      }
      if (node.type === 'PLAIN' && node.source !== undefined && (typeof v !== 'string' || BOOLEAN_WORDS_OF_YAML_1_1.test(v))) {
        plainScalars.set(pointer, node.source);
      }
      if (typeof v === 'bigint') return Number(v);
      return v;
    }
    return undefined;
  };

  const value = doc.contents === null ? null : walk(doc.contents as Node, '');
  return { value: clean ? value : undefined, map, findings, plainScalars };
}

/**
 * YAML for a JSON value that `parseYamlData` reads back as the same value: multi-line strings as literal blocks
 * (exact, chomping indicators included), no folding of long lines, strings that would read as something else quoted.
 */
export function stringifyYamlData(value: unknown): string {
  return stringify(value, {
    version: '1.2',
    schema: 'core',
    lineWidth: 0,
    minContentWidth: 0,
    aliasDuplicateObjects: false,
    blockQuote: 'literal',
    indentSeq: true,
  });
}
