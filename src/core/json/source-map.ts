/**
 * Maps JSON pointers to line and column in a file's text. Built only for files that have something to report,
 * with momoa's location-aware parser (V8's JSON.parse, used on the fast path, keeps no positions).
 */
import { parse, type AnyNode } from '@humanwhocodes/momoa';
import { childPointer, parentPointer } from './pointer.ts';

export interface Position {
  line: number;
  column: number;
}

/** Where a member's key and value start. */
export interface SourceEntry {
  key?: Position;
  value: Position;
}
type Entry = SourceEntry;

export interface SourceMap {
  /** Position of the value (or key) at `pointer`; for a missing member, the nearest existing ancestor. */
  locate(pointer: string, at?: 'key' | 'value'): Position;
}

const START: Position = { line: 1, column: 1 };

export function buildSourceMap(text: string): SourceMap {
  const entries = new Map<string, Entry>();
  try {
    // A BOM is its own finding (json/bom); read past it as whitespace so positions stay those of the file.
    const source = text.startsWith('\uFEFF') ? ' ' + text.slice(1) : text;
    const doc = parse(source, { mode: 'json', ranges: false, tokens: false });
    walk(doc.body, '', undefined, entries);
  } catch {
    // Unparseable text has no map; every lookup falls back to the start of the file.
  }
  return sourceMapOf(entries);
}

/** A source map over positions by pointer (JSON here, YAML drafts in core/draft/safe-yaml.ts). */
export function sourceMapOf(entries: ReadonlyMap<string, SourceEntry>): SourceMap {
  return {
    locate(pointer, at = 'value') {
      let p = pointer;
      for (;;) {
        const e = entries.get(p);
        if (e) return (at === 'key' && p === pointer && e.key) || e.value;
        if (p === '') return START;
        p = parentPointer(p);
      }
    },
  };
}

function pos(node: AnyNode): Position {
  return { line: node.loc.start.line, column: node.loc.start.column };
}

function walk(node: AnyNode, pointer: string, key: Position | undefined, out: Map<string, Entry>): void {
  // The first occurrence of a duplicated key keeps its place, as the duplicate-key diagnostic names it by the second.
  if (!out.has(pointer)) out.set(pointer, key ? { key, value: pos(node) } : { value: pos(node) });
  if (node.type === 'Object') {
    for (const member of node.members) {
      const name = member.name.type === 'String' ? member.name.value : String(member.name.name);
      walk(member.value, childPointer(pointer, name), pos(member.name), out);
    }
  } else if (node.type === 'Array') {
    node.elements.forEach((el, i) => walk(el.value, childPointer(pointer, i), undefined, out));
  }
}
