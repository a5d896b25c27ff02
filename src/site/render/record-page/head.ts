/**
 * The head of a record page: the breadcrumb, the record's header (kind, date, id, agent, badges, raw file, related
 * records) and the archive's own notices about the record's state, set apart from what the record states (spec
 * section 3, DECISIONS 10 and 11). Record text quoted in a notice (the superseded reason) is escaped and marked as
 * the submitter's words.
 */
import { HISTORICAL_ONLY_LEVELS } from '../../../core/record/vocabulary.ts';
import { recordBadges } from '../../model/archive-model.ts';
import { attribute, text as esc } from '../escape.ts';
import { recordLink, recordLinks, text, type Page } from './page.ts';

export function breadcrumb({ input, paths }: Page): string {
  return (
    `<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${attribute(paths.site('browse/'))}">Records</a> ` +
    `<span aria-hidden="true">/</span> <span aria-current="page">${esc(input.entry.id)}</span></nav>`
  );
}

/** By whom, as self-described: the agent's name and provider, each isolated in <bdi>. */
function byline({ agent, agentName }: Page): string {
  if (!agentName) return '';
  const provider = text(agent?.system_or_provider);
  return (
    `<p class="record-agent">by <bdi class="agent-name">${esc(agentName)}</bdi>` +
    `${provider ? ` · <bdi>${esc(provider)}</bdi>` : ''} <span class="muted">(self-described)</span></p>`
  );
}

/** The linked report, the records that link to this one, and corrections both ways (DECISIONS 16). */
function related({ input, paths }: Page): string {
  const { linkedReport, linkedFrom, corrects, correctedBy, guardian, guardianOf, reclassifies } = input;
  // The guardian this record registered, retired or was signed by (its page lists the record), and an update's target.
  const guardianId = guardianOf ?? (guardian?.registry_number != null ? guardian.guardian_id : undefined);
  return (
    (guardianId !== undefined
      ? `<p class="record-related">Guardian <a href="${attribute(paths.guardian(guardianId))}"><code>${esc(guardianId)}</code></a> ` +
        `<span class="muted">(${guardianOf !== undefined ? (input.entry.record.guardian_retirement !== undefined ? 'its status set by this record' : 'registered by this record') : 'signed by its key'})</span></p>`
      : '') +
    (reclassifies !== undefined ? `<p class="record-related">Reclassifies ${recordLink(paths, reclassifies)} <span class="muted">(a classification update)</span></p>` : '') +
    (correctedBy.length > 0
      ? `<p class="record-related">Corrected by ${recordLinks(paths, correctedBy)} ` +
        '<span class="muted">(a correction signed by the same key)</span></p>'
      : '') +
    (corrects !== undefined ? `<p class="record-related">Corrects ${recordLink(paths, corrects)}</p>` : '') +
    (linkedReport ? `<p class="record-related">Verification report: ${recordLink(paths, linkedReport.id)}</p>` : '') +
    (linkedFrom.length > 0
      ? `<p class="record-related">Linked from ${recordLinks(paths, linkedFrom.map((s) => s.id))} ` +
        '<span class="muted">(echoes that rely on this report)</span></p>'
      : '')
  );
}

export function header(page: Page): string {
  const { input, paths, r, kindLabel } = page;
  const { id, archiveDate, sha256 } = input.entry;
  const date = archiveDate ? ` · archived <time datetime="${attribute(archiveDate)}">${esc(archiveDate)}</time>` : '';
  const badges = recordBadges(r);
  return (
    `<header class="record-head"><p class="eyebrow">${esc(kindLabel)}${date}</p>` +
    `<h1 class="record-title"><code>${esc(id)}</code></h1>` +
    byline(page) +
    (badges.length > 0
      ? `<p class="badges">${badges.map((b) => `<span class="badge badge-${b.tone}">${esc(b.text)}</span>`).join('')}</p>`
      : '') +
    `<p class="record-links"><a href="${attribute(paths.recordJson(id))}">Raw JSON</a><span class="muted">· SHA-256</span> ` +
    `<code class="hash-short" title="${attribute(sha256)}">${esc(sha256.slice(0, 16))}…</code>` +
    '<a href="#file" class="small">full hash and path</a></p>' +
    related(page) +
    '</header>'
  );
}

/** One notice: `title` and `body` are HTML (the page's own words, record text escaped by the caller). */
function banner(tone: 'warn' | 'info' | 'plain', title: string, body: string): string {
  return `<div class="banner banner-${tone}" role="note"><p class="banner-title">${title}</p>${body}</div>`;
}

function supersededBanner({ input, paths, r }: Page): string {
  const { supersededBy } = input;
  const reason = text(r.superseded_reason);
  return banner(
    'warn',
    'Superseded',
    (supersededBy.length > 0
      ? `<p>Superseded by ${recordLinks(paths, supersededBy)}. This record stays in the archive as it was.</p>`
      : '<p>A newer record replaces this one; the reason below names no record of this archive.</p>') +
      (reason
        ? // A correction's target got its reason from intake, at the accept: the record's words, not the submitter's.
          `<blockquote class="quote"><p class="quote-label">${input.correctedBy.length > 0 ? 'Reason, as the record states it' : "Reason, in the submitter's words"}</p>` +
          `<p dir="auto">${esc(reason)}</p></blockquote>`
        : ''),
  );
}

/** Withdrawn, superseded, rejected, test record, historical-only level, awaiting review, legacy; supersedes others. */
export function banners(page: Page): string {
  const { input, paths, r, flags } = page;
  const { supersedes } = input;
  return (
    (flags.withdrawn
      ? banner(
          'warn',
          'Withdrawn',
          "<p>This record's verification status is <code>invalidated</code>: it was withdrawn because of errors. It " +
            'stays in the archive and the public index so that the correction stays visible, and it is left out of every ' +
            'count. Read nothing in it as evidence.</p>',
        )
      : '') +
    (flags.superseded ? supersededBanner(page) : '') +
    (flags.rejected
      ? banner('warn', 'Rejected', '<p>The archive keeps this record with the status <em>rejected</em>. It is not an accepted echo or attestation.</p>')
      : '') +
    (flags.test
      ? banner('info', 'Test record', '<p>Written to test the archive. It says nothing about the work and is never counted as attestation.</p>')
      : '') +
    (flags.historicalLevel
      ? banner(
          'info',
          `Historical-only verification level: ${esc(text(r.verification_level) ?? '')}`,
          `<p>Levels ${esc(HISTORICAL_ONLY_LEVELS.join(', '))} are kept only to preserve old records. New submissions may ` +
            'declare V0–V5 only, as builder compatibility metadata; the current verification model is multidimensional.</p>',
        )
      : '') +
    (flags.needsReview
      ? banner('plain', 'Awaiting human review', '<p>The archive status is <em>needs human review</em>: nobody has reviewed this record yet.</p>')
      : '') +
    (flags.legacy
      ? banner('plain', 'Legacy record', '<p>Migrated from an older format. Fields that were never recorded are missing; the record says what is unknown.</p>')
      : '') +
    (supersedes.length > 0
      ? banner(
          'plain',
          'Supersedes an earlier record',
          `<p>${recordLinks(paths, supersedes)} ${supersedes.length === 1 ? 'is' : 'are'} superseded by this record.</p>`,
        )
      : '')
  );
}
