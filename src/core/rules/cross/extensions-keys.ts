import { childPointer } from '../../json/pointer.ts';
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { ruleSchema } from '../../schema/schema-rules.ts';
import { violation, type SchemaRule } from '../rule.ts';

const ID = 'cross/extensions-keys';

/** The schema's extension-key sub-schema (`$defs/extension_key`): one `{title: word, not: {pattern}}` per word. */
const WORD_SCHEMAS = (ruleSchema(ID) as { allOf: Array<{ title: string; not: { pattern: string } }> }).allOf;

/** The eight words of spec 2.1 rule 7, in the spec's order, as the schema lists them. */
export const FORBIDDEN_EXTENSION_WORDS: readonly string[] = WORD_SCHEMAS.map((s) => s.title);

const WORD_PATTERNS = WORD_SCHEMAS.map((s) => ({ word: s.title, pattern: new RegExp(s.not.pattern, 'u') }));

/**
 * Forbidden words contained in a key, case-insensitively (DECISIONS 5: whatever the sense, e.g. "not_…"), by the
 * schema's own patterns: for code that must write keys the rule accepts (record-chain fields).
 */
export function forbiddenWordsIn(key: string): string[] {
  return WORD_PATTERNS.filter((w) => w.pattern.test(key)).map((w) => w.word);
}

/** The word of an error raised under `…/extension_key/allOf/N/not`. */
function wordOf(schemaPath: string): string | undefined {
  const n = /\/allOf\/(\d+)\/not$/.exec(schemaPath)?.[1];
  return n === undefined ? undefined : FORBIDDEN_EXTENSION_WORDS[Number(n)];
}

/**
 * Spec 2.1 cross-field rule 7 with DECISIONS 5: every key at every depth of `extensions`. The condition is the
 * schema's (`propertyNames` of extensions and, recursively, of every object inside it); one finding per key, naming
 * its words in the spec's order.
 */
export const extensionsKeys: SchemaRule = {
  id: ID,
  summary:
    'No key anywhere inside extensions may contain authority, canonical, amend, verification, attestation, investment, instruction or governance (spec 2.1 rule 7, DECISIONS 5).',
  explain(errors) {
    const keys = new Map<string, { key: string; words: string[] }>();
    for (const e of errors) {
      const word = wordOf(e.schemaPath);
      if (e.propertyName === undefined || word === undefined) continue;
      const pointer = childPointer(e.instancePath, e.propertyName);
      const entry = keys.get(pointer) ?? { key: e.propertyName, words: [] };
      if (!entry.words.includes(word)) entry.words.push(word);
      keys.set(pointer, entry);
    }
    const out: Finding[] = [];
    for (const [pointer, { key, words }] of keys) {
      words.sort((a, b) => FORBIDDEN_EXTENSION_WORDS.indexOf(a) - FORBIDDEN_EXTENSION_WORDS.indexOf(b));
      out.push(
        violation(
          this.id,
          pointer,
          `extensions key "${key}" contains the forbidden word(s) ${words.join(', ')}`,
          `Extensions carry non-authoritative metadata only, so their keys may not mention ${words.join(', ')} in any sense (even negated). Rename the key (e.g. describe the fact without the word) or drop it; the record's own fields already state its boundaries.`,
          'key',
        ),
      );
    }
    return out;
  },
};
