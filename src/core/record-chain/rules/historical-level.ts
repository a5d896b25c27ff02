import type { Finding } from '../../diagnostics/diagnostic.ts';
import { childPointer } from '../../json/pointer.ts';
import { HISTORICAL_ONLY_LEVELS, isHistoricalOnlyLevel } from '../../record/vocabulary.ts';
import { violation } from '../../rules/rule.ts';
import type { ChainRule } from './rule.ts';

/** Member names that carry a V level in a record: the claim model's, and the historical schema's should one appear. */
const LEVEL_FIELDS = new Set(['legacy_v_level', 'verification_level']);

/**
 * Spec 2.1 rule 9, spec 9.3, DECISIONS 11: new submissions may declare V0–V5 only; V4+, V6, V7 and V8 are
 * historical-only. The schema's enum already refuses them; this rule says why, and its finding replaces the
 * enum's at the same place.
 */
export const historicalLevel: ChainRule = {
  id: 'chain/historical-level',
  summary: 'A new submission declares no historical-only verification level (V4+, V6, V7, V8): V0–V5 only (spec 9.3, DECISIONS 11).',
  check({ record }) {
    if (!record) return [];
    const out: Finding[] = [];
    const visit = (node: unknown, pointer: string): void => {
      if (Array.isArray(node)) {
        node.forEach((item, i) => visit(item, childPointer(pointer, i)));
      } else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          const at = childPointer(pointer, key);
          if (LEVEL_FIELDS.has(key) && isHistoricalOnlyLevel(value)) {
            out.push(
              violation(
                this.id,
                at,
                `${String(value)} is a historical-only verification level: it preserves old records and is not accepted for new submissions (DECISIONS 11, spec 9.3)`,
                `Declare V0–V5 at most, as compatibility metadata, and state what you checked in the verification claim's dimensions (digital_profile, coverage_scope, limitations …). ${HISTORICAL_ONLY_LEVELS.join(', ')} are historical-only.`,
              ),
            );
          }
          visit(value, at);
        }
      }
    };
    visit(record, '/record');
    return out;
  },
};
