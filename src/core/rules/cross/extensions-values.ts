import type { Finding } from '../../diagnostics/diagnostic.ts';
import { childPointer } from '../../json/pointer.ts';
import { CLAIM_KINDS, findClaimPhrases, type ClaimKind } from '../../text/claim-phrases.ts';
import type { RecordRule } from '../rule.ts';

const KINDS_SENTENCE = `${CLAIM_KINDS.slice(0, -1).join(', ')} or ${CLAIM_KINDS.at(-1)}`;

const SIGNED_CONTENT = '/extensions/record_chain/record_jcs';

function shorten(phrase: string): string {
  return phrase.length > 80 ? phrase.slice(0, 77) + '…' : phrase;
}

/**
 * Spec 2.1 rule 7's second sentence with DECISIONS 23: a string anywhere inside `extensions` (any depth, arrays too)
 * that affirmatively claims authority, verification, attestation, amendment, governance, investment or instruction
 * gets a warning naming the phrase. The phrases are the core's one detector (src/core/text/claim-phrases.ts), the
 * one the propagation rules use; negated statements ("not verified", "claims no authority") pass. Keys are
 * cross/extensions-keys (errors).
 */
export const extensionsValues: RecordRule = {
  id: 'cross/extensions-values',
  summary:
    'No string inside extensions claims authority, verification, attestation, amendment, governance, investment or instruction (spec 2.1 rule 7, DECISIONS 23); a warning only.',
  check({ record }) {
    const out: Finding[] = [];
    const read = (text: string, pointer: string): void => {
      const matches = findClaimPhrases(text);
      if (matches.length === 0) return;
      // One warning per value: each claim kind it makes, with the first phrase that makes it.
      const byKind = new Map<ClaimKind, string>();
      for (const { item, phrase } of matches) for (const kind of item.claims ?? []) if (!byKind.has(kind)) byKind.set(kind, phrase);
      const kinds = CLAIM_KINDS.filter((k) => byKind.has(k));
      const claims = kinds.map((k) => `${k} ("${shorten(byKind.get(k)!)}")`);
      out.push({
        rule: this.id,
        severity: 'warning',
        message: `the extensions value at ${pointer} reads as a claim of ${claims.length > 1 ? `${claims.slice(0, -1).join(', ')} and ${claims.at(-1)}` : claims[0]}: extensions carry non-authoritative metadata only`,
        hint: `${matches[0]!.item.hint} Extensions must not create ${KINDS_SENTENCE} claims (spec 2.1 rule 7); a negated statement (e.g. "not verified", "claims no authority") is fine.`,
        pointer,
      });
    };
    const visit = (value: unknown, pointer: string): void => {
      // The record chain's signed content, kept verbatim so its proof can be checked: the submitter's words, judged
      // by the record-chain rules when it was taken in and shown as theirs, not a claim the extensions make.
      if (pointer === SIGNED_CONTENT) return;
      if (typeof value === 'string') read(value, pointer);
      else if (Array.isArray(value)) value.forEach((v, i) => visit(v, childPointer(pointer, i)));
      else if (value !== null && typeof value === 'object') for (const [key, v] of Object.entries(value)) visit(v, childPointer(pointer, key));
    };
    if (record.extensions !== undefined) visit(record.extensions, '/extensions');
    return out;
  },
};
