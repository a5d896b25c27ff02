import { childPointer } from '../../json/pointer.ts';
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { violation, type RecordRule } from '../rule.ts';

/** The eight words of spec 2.1 rule 7, in the spec's order. */
export const FORBIDDEN_EXTENSION_WORDS = [
  'authority',
  'canonical',
  'amend',
  'verification',
  'attestation',
  'investment',
  'instruction',
  'governance',
] as const;

/** Forbidden words contained in a key, case-insensitively (DECISIONS 5: whatever the sense, e.g. "not_…"). */
export function forbiddenWordsIn(key: string): string[] {
  const lower = key.toLowerCase();
  return FORBIDDEN_EXTENSION_WORDS.filter((w) => lower.includes(w));
}

/** Spec 2.1 cross-field rule 7 with DECISIONS 5: every key at every depth of `extensions`. */
export const extensionsKeys: RecordRule = {
  id: 'cross/extensions-keys',
  summary:
    'No key anywhere inside extensions may contain authority, canonical, amend, verification, attestation, investment, instruction or governance (spec 2.1 rule 7, DECISIONS 5).',
  check({ record }) {
    const out: Finding[] = [];
    const visit = (value: unknown, pointer: string): void => {
      if (Array.isArray(value)) {
        value.forEach((v, i) => visit(v, childPointer(pointer, i)));
      } else if (value !== null && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          const here = childPointer(pointer, key);
          const words = forbiddenWordsIn(key);
          if (words.length > 0) {
            out.push(
              violation(
                this.id,
                here,
                `extensions key "${key}" contains the forbidden word(s) ${words.join(', ')}`,
                `Extensions carry non-authoritative metadata only, so their keys may not mention ${words.join(', ')} in any sense (even negated). Rename the key (e.g. describe the fact without the word) or drop it; the record's own fields already state its boundaries.`,
                'key',
              ),
            );
          }
          visit(v, here);
        }
      }
    };
    if (record.extensions !== undefined) visit(record.extensions, '/extensions');
    return out;
  },
};
