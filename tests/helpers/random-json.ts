/**
 * Random re-serialisation of JSON values for property tests: shuffled member order at every depth, random
 * indentation and spacing, and optionally duplicated members, with an independent record of where the
 * duplicates were written.
 */
import { escapePointerToken } from '../../src/core/json/pointer.ts';

/** The synthetic archive's seeded PRNG, so that fast-check's seed reproduces a failing layout. */
export { prng as rng } from '../../scripts/lib/synthetic-archive.ts';

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

/** JSON whitespace only: space, tab, LF, CRLF. */
function gap(random: () => number): string {
  return pick(['', '', ' ', '  ', '\t', '\n', '\r\n', ' \n  ', '\n\t\t'], random);
}

/** Every \u-escaped, to write a key differently but equal after unescaping. */
function escapedKey(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) out += '\\u' + key.charCodeAt(i).toString(16).padStart(4, '0');
  return `"${out}"`;
}

export interface Layout {
  /** Re-order members of objects. */
  shuffleKeys?: boolean;
  /** Insert a duplicate of some members (with a primitive value) after the original. */
  duplicateChance?: number;
}

export interface Written {
  text: string;
  /** Where each duplicate was written: pointer of the member and 1-based line/column (UTF-16) of its key. */
  duplicates: Array<{ pointer: string; line: number; column: number }>;
}

/** Serialises `value` with a random layout; duplicate members are recorded as they are written. */
export function writeRandomly(value: unknown, random: () => number, layout: Layout = {}): Written {
  let text = '';
  const duplicates: Written['duplicates'] = [];
  const indentUnit = pick(['', ' ', '  ', '    ', '\t'], random);

  const position = (): { line: number; column: number } => {
    let line = 1;
    let start = 0;
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') { line++; start = i + 1; }
    return { line, column: text.length - start + 1 };
  };

  const newline = (depth: number) => (random() < 0.5 ? '\n' + indentUnit.repeat(depth) : gap(random));

  const write = (v: unknown, pointer: string, depth: number): void => {
    if (v === null || typeof v !== 'object') {
      text += JSON.stringify(v);
      return;
    }
    if (Array.isArray(v)) {
      text += '[';
      v.forEach((item, i) => {
        if (i > 0) text += gap(random) + ',';
        text += newline(depth + 1);
        write(item, `${pointer}/${i}`, depth + 1);
      });
      text += newline(depth) + ']';
      return;
    }
    const keys = layout.shuffleKeys ? shuffle(Object.keys(v), random) : Object.keys(v);
    const members: Array<{ key: string; value: unknown; duplicate: boolean }> = [];
    for (const key of keys) {
      members.push({ key, value: (v as Record<string, unknown>)[key], duplicate: false });
      if (layout.duplicateChance && random() < layout.duplicateChance) {
        members.push({ key, value: pick([1, 'x', true, null, 2.5], random), duplicate: true });
      }
    }
    text += '{';
    members.forEach((m, i) => {
      if (i > 0) text += gap(random) + ',';
      text += newline(depth + 1);
      const here = `${pointer}/${escapePointerToken(m.key)}`;
      if (m.duplicate) duplicates.push({ pointer: here, ...position() });
      text += m.duplicate && random() < 0.3 ? escapedKey(m.key) : JSON.stringify(m.key);
      text += gap(random) + ':' + gap(random);
      write(m.value, here, depth + 1);
    });
    text += newline(depth) + '}';
  };

  text += gap(random);
  write(value, '', 0);
  text += gap(random);
  return { text, duplicates };
}

/** Members of every object, shuffled at every depth (for checks on parsed values). */
export function shuffledDeep(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffledDeep(v, random));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of shuffle(Object.keys(value), random)) out[k] = shuffledDeep((value as Record<string, unknown>)[k], random);
  return out;
}
