/**
 * What the build derived about a record's key and classification (DECISIONS 25 and 26, docs/guardians.md section 5),
 * set apart from what the record states about itself: the guardian verification result in plain words (a warning
 * when the key signed after it was reported compromised), links between the record and its guardian's page, and the
 * history of the classification updates that name the record (who proposed what, why, on what basis, accepted when,
 * applied or not and why). The proposer's and the guardian's words are escaped and marked as theirs.
 */
import { fieldLabel, valueLabel } from '../../model/labels.ts';
import { attribute, text as esc } from '../escape.ts';
import { fieldListHtml } from '../field-value.ts';
import { recordLink, section, type Page } from './page.ts';

export const GUARDIAN_NOTE =
  'This proves possession of the key only. Guardianship changes no authority, no verification level and no count.';

export const CLASSIFICATION_NOTE =
  "A classification update changes how the record is counted only as its effective classification says, and never " +
  "authority or a verification level. The record's file, its SHA-256 and its transparency-log leaf are unchanged.";

/** A link to a guardian's page, its id as code. */
export function guardianLink(page: Page, guardianId: string): string {
  return `<a href="${attribute(page.paths.guardian(guardianId))}"><code>${esc(guardianId)}</code></a>`;
}

function plainStatus(status: string): string {
  return status.replaceAll('_', ' ');
}

/** A warning banner for a record its key signed after that key was reported compromised (or retired), else nothing. */
export function guardianBanner(page: Page): string {
  const guardian = page.input.guardian;
  if (!guardian || guardian.warnings.length === 0) return '';
  const compromised = guardian.warnings.some((w) => w.includes('compromised'));
  return (
    `<div class="banner banner-warn" role="note"><p class="banner-title">${compromised ? 'Signed by a key reported compromised' : 'Guardian key warning'}</p>` +
    `<ul>${guardian.warnings.map((w) => `<li>${esc(w[0]!.toUpperCase() + w.slice(1))}.</li>`).join('')}</ul>` +
    `<p>The signature shows only that the key signed this record; it says nothing about who held the key then. ` +
    `<a href="#guardian">Guardian key</a></p></div>`
  );
}

/** "Guardian key": the verification result in plain words, with the registry's status and the boundary note. */
export function guardianSection(page: Page): string {
  const { input } = page;
  const guardian = input.guardian;
  const role = input.guardianOf;
  if (!guardian && role === undefined) return '';
  let body = '';
  if (role !== undefined) {
    const retires = input.entry.record.guardian_retirement !== undefined;
    body += `<p>This record ${retires ? 'sets the status of' : 'registers'} guardian ${guardianLink(page, role)}.</p>`;
  }
  if (guardian) {
    const registered = guardian.registry_number !== null;
    body +=
      `<p class="guardian-summary"><strong>${esc(guardian.summary[0]!.toUpperCase() + guardian.summary.slice(1))}.</strong></p>` +
      '<dl class="fields">' +
      `<dt>Guardian</dt><dd>${registered ? guardianLink(page, guardian.guardian_id) : `<code>${esc(guardian.guardian_id)}</code>`}</dd>` +
      `<dt>Registry number</dt><dd>${registered ? esc(guardian.registry_number!) : '<span class="muted">not registered</span>'}</dd>` +
      `<dt>Registry status</dt><dd>${esc(plainStatus(guardian.registry_status))}</dd>` +
      `<dt>Result</dt><dd><code>${esc(guardian.guardian_status)}</code></dd>` +
      (guardian.warnings.length > 0 ? `<dt>Warnings</dt><dd><ul>${guardian.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></dd>` : '') +
      (guardian.errors.length > 0 ? `<dt>What does not hold</dt><dd><ul>${guardian.errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul></dd>` : '') +
      '</dl>';
  }
  body += `<p class="muted small">${GUARDIAN_NOTE} <a href="${attribute(page.paths.guardian())}">The guardian registry</a></p>`;
  return section('guardian', 'Guardian key', body);
}

/** A classification (some of independence_class, origin_classification, do_not_count_as_attestation) as a field list. */
function classificationHtml(c: Readonly<Record<string, unknown>>): string {
  return Object.keys(c).length === 0 ? '<span class="muted">none stated</span>' : fieldListHtml(c, { order: ['independence_class', 'do_not_count_as_attestation', 'origin_classification'] });
}

/** The target's "Classification updates"; on an update's own page, the record it names. */
export function classificationUpdatesSection(page: Page): string {
  const { input, paths } = page;
  let body = '';
  if (input.reclassifies !== undefined) {
    body += `<p>This classification update names ${recordLink(paths, input.reclassifies)}; its page shows whether it was applied, and why.</p>`;
  }
  const view = input.classification;
  if (view) {
    const changed = view.history.some((c) => c.applied);
    body +=
      '<div class="two-col">' +
      `<div><h3>Effective classification</h3>${classificationHtml(view.effective)}</div>` +
      `<div><h3>As the record states it</h3>${classificationHtml(view.original)}</div></div>` +
      `<p>${changed ? 'Counts, facets and the public index read the effective classification.' : 'No update was applied: the record counts as it states itself.'}</p>` +
      '<ol class="values values-objects">' +
      view.history
        .map(
          (c) =>
            '<li><dl class="fields">' +
            `<dt>Update</dt><dd>${recordLink(paths, c.record_id)}${c.accepted_on ? ` <span class="muted">· accepted ${esc(c.accepted_on)}</span>` : ''}</dd>` +
            `<dt>Proposed by</dt><dd><bdi>${esc(c.submitted.proposed_by)}</bdi> <span class="muted">(self-described)</span></dd>` +
            `<dt>Previous (as the proposer read it)</dt><dd>${classificationHtml(c.previous)}</dd>` +
            `<dt>Proposed</dt><dd>${classificationHtml(c.proposed)}</dd>` +
            `<dt>Reason <span class="muted">(the proposer's words)</span></dt><dd><span class="text" dir="auto">${esc(c.submitted.reason)}</span></dd>` +
            `<dt>Basis <span class="muted">(the proposer's words)</span></dt><dd><span class="text" dir="auto">${esc(c.submitted.basis)}</span></dd>` +
            `<dt>Applied</dt><dd>${c.applied ? '<span class="flag flag-yes">Yes</span>' : `<span class="flag flag-no">No</span> ${esc(c.not_applied_because ?? '')}`}</dd>` +
            '</dl></li>',
        )
        .join('') +
      '</ol>';
  }
  if (body === '') return '';
  return section('classification-updates', 'Classification updates', body + `<p class="muted small">${CLASSIFICATION_NOTE}</p>`);
}

/** The key fact "Independence class" notes a value an update changed. */
export function effectiveNote(page: Page, field: string): string {
  const view = page.input.classification;
  if (!view || !Object.hasOwn(view.effective, field) && !Object.hasOwn(view.original, field)) return '';
  const before = view.original[field as keyof typeof view.original];
  const after = view.effective[field as keyof typeof view.effective];
  if (JSON.stringify(before) === JSON.stringify(after)) return '';
  const was = typeof before === 'string' ? valueLabel(field, before) : before === undefined ? 'not stated' : String(before);
  return `<span class="fact-note">changed by a <a href="#classification-updates">classification update</a>; the record states ${esc(was)} (${esc(fieldLabel(field))})</span>`;
}
