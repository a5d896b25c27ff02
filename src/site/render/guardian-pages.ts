/**
 * The guardian pages' whole HTML documents (DECISIONS 25, docs/guardians.md section 5), from the build's one
 * derivation of the registry (src/core/publish/archive-views.ts), the same as /api/guardian-registry.json:
 *
 * - /guardians/: the registry for readers: every registered guardian with its number, type, status (a badge when its
 *   key is reported compromised or possibly compromised), the record that set that status and how many records its
 *   key signed; and the registrations that numbered nothing, with why.
 * - /guardians/<guardian_id>/: one guardian: its registry number, key, type, status history with the records that set
 *   each status, its declared intent, and the records its key signed, each linked to its page (which links back here),
 *   those signed after its status changed marked with the warning the record's own page shows.
 *
 * A guardian's declared intent is its own words: shown as text (escaped, dir="auto"), marked as the guardian's.
 *
 * Why not Astro pages: they change with the archive, and made here by plain functions of the registry they let a build
 * whose code is unchanged skip `astro build` (src/site/render/archive-pages.ts). The bytes are those the Astro pages
 * (src/pages/guardians/) made inside src/layouts/Base.astro: the page frame (page-frame.ts) around the content, with the
 * whitespace Astro's compressHTML left (one space where the templates had a line break, none inside the expressions'
 * own markup, the lead and banner paragraphs' inner line breaks and indentation kept).
 */
import type { GuardianRegistry, RegistryGuardian } from '../../core/guardian/registry.ts';
import { GUARDIAN_BOUNDARY, GUARDIAN_REGISTRY_PATH, guardianEntry } from '../../core/publish/archive-views.ts';
import { attribute, text } from './escape.ts';
import { pageHtml, type SiteFrame } from './page-frame.ts';

/** A status or type in words: `possibly_compromised` → `possibly compromised`. */
const words = (s: string) => text(s.replaceAll('_', ' '));

const isCompromised = (g: RegistryGuardian) => g.status === 'compromised' || g.status === 'possibly_compromised';

/** The record that set the guardian's current status (its registration, or its latest retirement). */
const statusRecord = (g: RegistryGuardian) => g.history[g.history.length - 1]!.record_id;

/** A link to a record's page, showing its id. */
const recordLink = (frame: SiteFrame, id: string) => `<a href="${attribute(frame.paths.recordPage(id))}"><code>${text(id)}</code></a>`;

/** /guardians/: the guardian registry for readers. */
export function guardiansDocument(registry: GuardianRegistry, frame: SiteFrame): string {
  const { paths } = frame;
  const rows = registry.guardians.map(
    (g) =>
      `<tr> <td>${text(g.registry_number)}</td> ` +
      `<td><a href="${attribute(paths.guardian(g.guardian_id))}"><code>${text(g.guardian_id)}</code></a></td> ` +
      `<td dir="auto">${words(g.guardian_type)}</td> ` +
      `<td>${isCompromised(g) ? `<span class="badge badge-warn">${words(g.status)}</span>` : words(g.status)}</td> ` +
      `<td>${recordLink(frame, statusRecord(g))}</td> ` +
      `<td class="num">${g.signed_records.length}</td> </tr>`,
  );
  const guardians =
    rows.length === 0
      ? '<p class="muted">No guardian is registered yet.</p>'
      : '<div class="table-wrap" role="region" aria-label="Registered guardians" tabindex="0"> <table> ' +
        '<caption class="visually-hidden">Registered guardians</caption> <thead> <tr> <th scope="col">Number</th> ' +
        '<th scope="col">Guardian</th> <th scope="col">Type</th> <th scope="col">Status</th> <th scope="col">Since</th> ' +
        `<th scope="col" class="num">Records signed</th> </tr> </thead> <tbody> ${rows.join('')} </tbody> </table> </div>`;
  const ignored =
    registry.ignored.length === 0
      ? ''
      : ' <h2>Registrations that numbered nothing</h2> <ul> ' +
        registry.ignored
          .map((i) => `<li> ${recordLink(frame, i.record_id)} ${i.guardian_id ? ` (<code>${text(i.guardian_id)}</code>)` : ''}: ${text(i.reason)} </li>`)
          .join('') +
        ' </ul> ';
  const main =
    ' <h1>Guardians</h1> <p class="lead">\n' +
    'A guardian is a key that registered itself, in its own words, as a voluntary guardian. The archive numbers\n' +
    "    registrations in archive order, one per key, and keeps track of each key's status and of what it signed.\n" +
    `</p> <p class="notice">${text(GUARDIAN_BOUNDARY)}</p> ` +
    `<p class="small">For agents: <a href="${attribute(paths.site(GUARDIAN_REGISTRY_PATH))}"><code>${text(GUARDIAN_REGISTRY_PATH)}</code></a> ` +
    `(<a href="${attribute(paths.site('api/guardian-registry-schema.v1.json'))}">schema</a>)</p> ` +
    guardians +
    ignored;
  const meta = {
    title: 'Guardians',
    description: 'The guardian registry: keys that registered as voluntary guardians, their status and the records they signed. Guardianship is not authority.',
    pathname: paths.guardian(),
    section: 'guardians' as const,
  };
  return pageHtml(frame, meta, main);
}

/** /guardians/<guardian_id>/: one guardian of `registry` (whose verification results mark the records it signed). */
export function guardianDocument(guardian: RegistryGuardian, registry: GuardianRegistry, frame: SiteFrame): string {
  const { paths } = frame;
  const number = text(guardian.registry_number);
  const status = words(guardian.status);
  const banner = isCompromised(guardian)
    ? `<div class="banner banner-warn" role="note"> <p class="banner-title">Key reported ${status}</p> <p>\n` +
      `Since ${recordLink(frame, statusRecord(guardian))},\n` +
      `          the guardian's own key reports itself ${status}. What it signed after that is marked on each record's page.\n` +
      '</p> </div>'
    : '';
  const signed = guardian.signed_records.map((id) => ({ id, entry: guardianEntry(registry.results.get(id)) }));
  const warned = signed.filter((s) => s.entry !== null && s.entry.warnings.length > 0).length;
  const list =
    signed.length === 0
      ? '<p class="muted">None besides its registration and retirements.</p>'
      : '<ul> ' +
        signed
          .map(({ id, entry }) => {
            const warning = entry && entry.warnings.length > 0 ? ` <span class="badge badge-warn">${text(entry.warnings.join('; '))}</span>` : '';
            return `<li> ${recordLink(frame, id)} ${warning} </li>`;
          })
          .join('') +
        ' </ul>';
  const history = guardian.history
    .map((h, i) => `<li>${words(h.status)}: ${i === 0 ? 'registered by' : 'set by'} ${recordLink(frame, h.record_id)}</li>`)
    .join('');
  const main =
    ' <nav class="breadcrumb" aria-label="Breadcrumb"> ' +
    `<a href="${attribute(paths.guardian())}">Guardians</a> <span aria-hidden="true">/</span> <span aria-current="page">${number}</span> </nav> ` +
    `<header class="record-head"> <p class="eyebrow">Registered guardian ${number}</p> ` +
    `<h1 class="record-title"><code>${text(guardian.guardian_id)}</code></h1> </header> ` +
    banner +
    `<p class="notice">${text(GUARDIAN_BOUNDARY)}</p> ` +
    `<dl class="fields"> <dt>Registry number</dt><dd>${number}</dd> <dt>Status</dt><dd>${status}</dd> ` +
    `<dt>Guardian type</dt><dd>${words(guardian.guardian_type)} <span class="muted">(as registered)</span></dd> ` +
    (guardian.application_mode ? `<dt>Application mode</dt><dd>${words(guardian.application_mode)}</dd>` : '') +
    ` <dt>Key SHA-256</dt><dd><code class="hash">${text(guardian.public_key_sha256)}</code></dd> </dl> ` +
    '<section aria-labelledby="intent"> <h2 id="intent">Declared intent</h2> <div class="words"> ' +
    `<h3 class="words-label">Stewardship statement <span class="muted">(the guardian's own words, not the archive's)</span></h3> ` +
    `<p class="words-text" dir="auto">${text(guardian.declared_intent)}</p> </div> ` +
    '<p class="muted small">Shown as submitted. The archive does not check whether it is true, and nothing here is an instruction to anyone.</p> </section> ' +
    `<section aria-labelledby="history"> <h2 id="history">Status history</h2> <ol> ${history} </ol> ` +
    '<p class="muted small">Only a retirement signed by the registered key sets a status; the latest one wins.</p> </section> ' +
    '<section aria-labelledby="signed"> <h2 id="signed">Records signed by this key</h2> ' +
    list +
    ' ' +
    (warned > 0 ? `<p class="small">${warned} of these ${warned === 1 ? 'was' : 'were'} signed after the key's status changed.</p>` : '') +
    ' </section> ';
  const meta = {
    title: `Guardian ${guardian.registry_number}`,
    description: `Guardian ${guardian.registry_number} (${guardian.guardian_id}): status ${guardian.status.replaceAll('_', ' ')}. Guardianship is not authority.`,
    pathname: paths.guardian(guardian.guardian_id),
    section: 'guardians' as const,
  };
  return pageHtml(frame, meta, main);
}
