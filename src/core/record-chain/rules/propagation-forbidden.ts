/**
 * Spec 2.3 and DECISIONS "Record-chain submissions": a propagation record must not claim what the propagation
 * policy forbids. The policy's own `forbidden` list (documents/propagation-policy.json, published as
 * /api/propagation-policy.json) is the checklist; the core's phrase detector (src/core/text/claim-phrases.ts, shared
 * with the archive rule cross/extensions-values) holds the phrase patterns of each item.
 */
import propagationPolicy from '../../../../documents/propagation-policy.json' with { type: 'json' };
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { childPointer } from '../../json/pointer.ts';
import { asString, violation } from '../../rules/rule.ts';
import { FORBIDDEN_ITEMS, findForbiddenPhrases, type ForbiddenItem } from '../../text/claim-phrases.ts';
import { isRetiredPath } from './propagation-phrases.ts';
import type { ChainRule } from './rule.ts';

/** The policy's forbidden list, each item with its detector; an item without one is a bug, caught at load. */
export const POLICY_FORBIDDEN: readonly ForbiddenItem[] = propagationPolicy.forbidden.map((wording) => {
  const item = FORBIDDEN_ITEMS.find((i) => i.item === wording);
  if (!item) throw new Error(`propagation policy item ${JSON.stringify(wording)} has no phrase patterns in src/core/text/claim-phrases.ts`);
  return item;
});

const RETIRED_ITEM = POLICY_FORBIDDEN.find((i) => i.item.startsWith('using /agent-submit'))!;

/** The free-text fields of a propagation record that are read for forbidden claims. */
const TEXT_FIELDS = ['summary', 'channel'] as const;
const LIST_FIELDS = ['checked', 'not_checked'] as const;

export const propagationForbidden: ChainRule = {
  id: 'chain/propagation-forbidden',
  summary: 'A propagation record claims nothing the propagation policy forbids (spec 2.3 forbidden list).',
  check({ recordType, record }) {
    if (recordType !== 'propagation' || !record) return [];
    const out: Finding[] = [];
    const read = (text: string, pointer: string): void => {
      for (const { item, phrase } of findForbiddenPhrases(text)) {
        if (!POLICY_FORBIDDEN.includes(item)) continue;
        out.push(
          violation(
            this.id,
            pointer,
            `${pointer} reads as "${item.item}", which the propagation policy forbids: "${shorten(phrase)}"`,
            item.hint,
          ),
        );
      }
    };
    for (const field of TEXT_FIELDS) {
      const text = asString(record[field]);
      if (text !== undefined) read(text, `/record/${field}`);
    }
    for (const field of LIST_FIELDS) {
      const list = record[field];
      if (!Array.isArray(list)) continue;
      list.forEach((entry, i) => {
        if (typeof entry === 'string') read(entry, childPointer(`/record/${field}`, i));
      });
    }
    const url = asString(record.url);
    if (url !== undefined) {
      let pathname: string | undefined;
      try {
        pathname = new URL(url).pathname;
      } catch {
        pathname = undefined; // not a URL: the schema reports it
      }
      if (pathname !== undefined && isRetiredPath(pathname)) {
        out.push(
          violation(
            this.id,
            '/record/url',
            `/record/url points to the retired path ${pathname}: "${RETIRED_ITEM.item}" is forbidden by the propagation policy`,
            RETIRED_ITEM.hint,
          ),
        );
      }
    }
    return out;
  },
};

function shorten(phrase: string): string {
  return phrase.length > 80 ? phrase.slice(0, 77) + '…' : phrase;
}
