/**
 * The key facts of a record page (kind, status, depth, assessment, level, scopes, independence, whether it counts as
 * an independent attestation) and the page's table of contents.
 */
import { claimOf, recordTypeOf } from '../../../core/record/record-chain-fields.ts';
import { claimsAttestation, countsAsAttestation } from '../../../core/record/status.ts';
import { facetByKey, valueSlug } from '../../model/facets.ts';
import { valueLabel } from '../../model/labels.ts';
import type { SitePaths } from '../../model/paths.ts';
import { attribute, text as esc } from '../escape.ts';
import { hasVerificationDetails, object, type Json, type Page } from './page.ts';
import { effectiveNote } from './guardian.ts';

/**
 * One key fact: its label, the value in words, the raw value when the words differ, and `note` (HTML). A facet's
 * value links to every record with the same value, but only a value the schema allows (a facet value of
 * src/site/model/facets.ts): record text never becomes part of a URL. Nothing when the value is not text.
 */
function fact(paths: SitePaths, label: string, field: string, value: unknown, facet: boolean, note = ''): string {
  if (typeof value !== 'string') return '';
  const words = valueLabel(field, value);
  const link = facet && facetByKey(field)?.values.includes(value) === true;
  return (
    `<div class="fact"><dt>${label}</dt><dd>` +
    (link
      ? `<a href="${attribute(paths.browse(field, valueSlug(value)))}" title="All records with this value">${esc(words)}</a>`
      : `<span dir="auto">${esc(words)}</span>`) +
    (words !== value ? `<code class="raw">${esc(value)}</code>` : '') +
    `${note}</dd></div>`
  );
}

/** Why the record is or is not counted as an independent attestation (DECISIONS 9, 10 and 18). */
function attestationNote(r: Json, counted: boolean, withdrawn: boolean, reclassified = false): string {
  if (counted) return 'the archive accepted it as an independent attestation, and it is neither withdrawn nor opted out';
  const accepted = r.archive_status === 'accepted_independent_attestation';
  const claims = claimsAttestation(r as Record<string, unknown>);
  const but = accepted ? 'the archive accepted it as an independent attestation, but ' : claims ? 'the record claims it, but ' : '';
  if (withdrawn) return `${but}it is withdrawn`;
  if (r.do_not_count_as_attestation === true) return `${but}it is marked do not count as attestation${reclassified ? ' by a classification update' : ''}`;
  if (accepted) return `${but}it is a test record`;
  if (claims) return 'the record claims it, but only a record the archive accepted as an independent attestation counts';
  return 'the record does not claim it';
}

export function keyFacts(page: Page): string {
  const { paths, r, flags, effective } = page;
  // Counting reads the effective classification (DECISIONS 26): the record's own unless an update changed it.
  const counted = countsAsAttestation(effective as Record<string, unknown>);
  const reclassified = effective.do_not_count_as_attestation !== r.do_not_count_as_attestation;
  return (
    '<section aria-labelledby="facts-heading" class="facts-panel"><h2 id="facts-heading" class="visually-hidden">Key facts</h2><dl class="facts">' +
    fact(paths, 'Record kind', 'record_kind', r.record_kind, true) +
    fact(paths, 'Record type', 'record_type', recordTypeOf(r as Record<string, unknown>), true, '<span class="fact-note">as submitted through the record-chain path</span>') +
    fact(paths, 'Archive status', 'archive_status', r.archive_status, true) +
    fact(paths, 'Context depth', 'context_depth', r.context_depth, true) +
    fact(paths, 'Assessment state', 'assessment_state', r.assessment_state, true) +
    fact(paths, 'Verification level', 'verification_level', r.verification_level, true, '<span class="fact-note">historical archive field, not the current verification model</span>') +
    fact(paths, 'Verification scope', 'verification_scope_label', r.verification_scope_label, false) +
    fact(paths, 'Claim scope', 'claim_scope', r.claim_scope, false) +
    fact(paths, 'Independence class', 'independence_class', effective.independence_class, true, effectiveNote(page, 'independence_class')) +
    fact(paths, 'Verification status', 'verification_status', r.verification_status, false) +
    '<div class="fact"><dt>Counted as independent attestation</dt><dd>' +
    `<span class="flag ${counted ? 'flag-yes' : 'flag-no'}">${counted ? 'Yes' : 'No'}</span>` +
    `<span class="fact-note">${attestationNote(effective, counted, flags.withdrawn, reclassified)}</span></dd></div></dl></section>`
  );
}

/** Links to the sections this page has, in page order. */
export function tableOfContents(page: Page): string {
  const { r, agent, authorship } = page;
  const sections: [id: string, label: string][] = [['submitted-heading', 'Submitted text']];
  if (page.input.classification || page.input.reclassifies !== undefined) sections.unshift(['classification-updates', 'Classification updates']);
  if (page.input.guardian || page.input.guardianOf !== undefined) sections.unshift(['guardian', 'Guardian key']);
  if (page.gate) sections.unshift(['claim-gate', 'Claim Gate finding']);
  if (agent) sections.push(['agent', 'Agent']);
  if (object(r.discovery_provenance)) sections.push(['discovery', 'How the agent came to the work']);
  if (object(r.origin_classification) || object(r.reception_classification)) sections.push(['classification', 'Classification']);
  if (claimOf(r as Record<string, unknown>)) sections.push(['claim', 'Verification claim']);
  if (hasVerificationDetails(page)) sections.push(['verification', 'Verification details']);
  sections.push(['boundary', 'Boundary']);
  if (Object.keys(authorship).length > 0) sections.push(['authorship', 'Authorship']);
  if (object(r.extensions)) sections.push(['extensions', 'Extensions']);
  sections.push(['file', 'The file']);
  const items = sections.map(([id, label]) => `<li><a href="#${id}">${label}</a></li>`).join('');
  return `<nav class="toc" aria-label="On this page"><ul>${items}</ul></nav>`;
}
