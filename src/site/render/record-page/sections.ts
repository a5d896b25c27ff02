/**
 * What the record states about itself, one section per part: agent, discovery, classification, verification details
 * (linked report, records linking here, component findings, the report's own fields), boundary, authorship,
 * extensions, any other field, and the record file. Values are shown by src/site/render/field-value.ts.
 */
import { fieldLabel } from '../../labels.ts';
import { attribute, text as esc } from '../escape.ts';
import { fieldListHtml, fieldValueHtml } from '../field-value.ts';
import { boundaryBlock } from './boundary.ts';
import { logRows } from './log.ts';
import { FORMAT_KEYS, PLACED, hasVerificationDetails, object, pick, relatedRecord, section, text, type Json, type Page } from './page.ts';

export function agentSection({ agent }: Page): string {
  if (!agent) return '';
  return section('agent', 'Agent', fieldListHtml(agent, { order: ['name_or_model', 'system_or_provider', 'self_reported', 'session_or_run_id'] }));
}

export function discoverySection({ r }: Page): string {
  const discovery = object(r.discovery_provenance);
  if (!discovery) return '';
  const list = fieldListHtml(discovery, { order: ['source', 'agency_level', 'first_entry', 'confidence', 'notes'], omit: ['schema'] });
  return section('discovery', 'How the agent came to the work', list);
}

export function classificationSection({ r }: Page): string {
  const part = (key: string) => {
    const value = object(r[key]);
    return value ? `<h3>${esc(fieldLabel(key))}</h3>${fieldListHtml(value, { omit: ['schema'] })}` : '';
  };
  const body = part('origin_classification') + part('reception_classification');
  return body ? section('classification', 'Classification', body) : '';
}

/** Component findings as a table: component, depth achieved, limitations (and any other field of a finding). */
function componentFindings(findings: Json): string {
  const rows = Object.entries(findings).map(([component, finding]) => {
    const f = object(finding);
    const more = f && Object.keys(f).some((k) => k !== 'depth_achieved' && k !== 'limitations') ? fieldListHtml(f, { omit: ['depth_achieved', 'limitations'] }) : '';
    return (
      `<tr><th scope="row" dir="auto">${esc(fieldLabel(component))}</th><td><code>${esc(text(f?.depth_achieved) ?? '')}</code></td>` +
      `<td dir="auto">${esc(text(f?.limitations) ?? '')}${more}</td></tr>`
    );
  });
  return (
    `<h3>${esc(fieldLabel('component_findings'))}</h3>` +
    // A scrolling table is a region the keyboard can reach (and scroll).
    `<div class="table-wrap" role="region" aria-label="${attribute(fieldLabel('component_findings'))}" tabindex="0"><table><thead><tr><th scope="col">Component</th>` +
    `<th scope="col">Depth achieved</th><th scope="col">Limitations</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

export function verificationSection(page: Page): string {
  if (!hasVerificationDetails(page)) return '';
  const { input, paths, linked, findings, verificationDetails } = page;
  const { linkedReport, linkedFrom } = input;
  let body = '';
  if (linked) {
    body +=
      '<div class="crosslink"><h3>Linked verification report</h3>' +
      (linkedReport ? `<p>${relatedRecord(paths, linkedReport)}</p>` : '<p class="muted">The linked report is not a record of this archive.</p>') +
      `${fieldListHtml(linked)}</div>`;
  }
  if (linkedFrom.length > 0) {
    const items = linkedFrom.map((s) => `<li>${relatedRecord(paths, s)}</li>`).join('');
    body += `<div class="crosslink"><h3>Records that link to this report</h3><ul>${items}</ul></div>`;
  }
  if (findings) body += componentFindings(findings);
  for (const [key, value] of Object.entries(verificationDetails)) {
    const nested = object(value);
    body += `<h3>${esc(fieldLabel(key))}</h3>${nested ? fieldListHtml(nested) : `<p>${fieldValueHtml(key, value)}</p>`}`;
  }
  return section('verification', 'Verification details', body);
}

export function boundarySection({ r }: Page): string {
  return section('boundary', 'Boundary', boundaryBlock(r));
}

export function authorshipSection({ authorship }: Page): string {
  if (Object.keys(authorship).length === 0) return '';
  const note = '<p class="muted small">Proofs of key or secret possession at signing time only. They add no authority and do not change any verification level.</p>';
  return section('authorship', 'Authorship', note + fieldListHtml(authorship));
}

export function extensionsSection({ r }: Page): string {
  const extensions = object(r.extensions);
  if (!extensions) return '';
  return section('extensions', 'Extensions', `<p class="muted small">Non-authoritative metadata added by the submitter.</p>${fieldListHtml(extensions)}`);
}

/** Every key no other part of the page shows, so that nothing is ever left out. */
export function otherFieldsSection({ r }: Page): string {
  const other = Object.keys(r).filter((k) => !PLACED.has(k));
  return other.length > 0 ? section('other', 'Other fields', fieldListHtml(pick(r, other))) : '';
}

/** The record file: its raw JSON, hash, path, archive date and format fields, and how to check the hash. */
export function fileSection({ input, paths, ctx, r }: Page): string {
  const { id, path, archiveDate, sha256 } = input.entry;
  const json = paths.recordJson(id);
  const format = Object.entries(pick(r, FORMAT_KEYS))
    .map(([key, value]) => `<dt>${esc(fieldLabel(key))}</dt><dd>${fieldValueHtml(key, value)}</dd>`)
    .join('');
  const url = new URL(json, ctx.site ?? 'http://localhost/').href;
  return section(
    'file',
    'The file',
    '<dl class="fields">' +
      `<dt>Raw JSON</dt><dd><a href="${attribute(json)}">${esc(`${id}.json`)}</a> <span class="muted">(the exact bytes in the archive)</span></dd>` +
      `<dt>SHA-256 of those bytes</dt><dd><code class="hash">${esc(sha256)}</code></dd>` +
      `<dt>Path from the archive root</dt><dd><code>${esc(path)}</code></dd>` +
      `<dt>Archive date</dt><dd>${archiveDate !== null ? esc(archiveDate) : '<span class="muted">none (the file name is not in the conventional form)</span>'}</dd>` +
      `${format}${logRows(input.log, paths)}</dl>` +
      `<p class="muted small">Check it yourself: <code>curl -s ${esc(url)} | sha256sum</code></p>`,
  );
}
