/**
 * The submitter's verification claim (DECISIONS 19): the dimensions of the verification claim model a record-chain
 * record keeps in extensions.record_chain.claim, shown one by one and framed as the submitter's claim, never as
 * something the archive checked or states.
 */
import { CLAIM_DIMENSIONS, claimOf } from '../../../core/record/record-chain-fields.ts';
import { fieldListHtml } from '../field-value.ts';
import { section, type Page } from './page.ts';

export function claimSection({ r }: Page): string {
  const claim = claimOf(r as Record<string, unknown>);
  if (!claim) return '';
  return section(
    'claim',
    'Verification claim <span class="submitted-note">— the submitter\'s claim, not the archive\'s</span>',
    '<p class="muted small">What the submitter says was checked, how far and with what limits, in the verification ' +
      'claim model (<code>service.verification-claim-model.v1</code>). The archive did not check it; it creates no ' +
      'authority and is not an attestation.</p>' +
      fieldListHtml(claim, { order: CLAIM_DIMENSIONS, omit: ['schema'] }),
  );
}
