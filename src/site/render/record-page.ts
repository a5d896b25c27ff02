/**
 * A record's page, /records/<id>/, as one pure string function: everything inside <main>, with the title and
 * description the page frame needs (src/site/render/page-frame.ts adds the frame). It writes the markup the former
 * Astro page (src/pages/records/[id].astro with its components Fact, RecordBanners, BoundaryBlock, SubmittedText)
 * wrote, byte for byte as Astro's compressed output: no whitespace between tags, template line breaks as one space.
 *
 * Why strings and not components: the record pages are most of the site (10,000 of 11,300 pages at 10,000 records),
 * and Astro renders components one at a time on one thread. As a plain function of the record and its relations the
 * page can be rendered anywhere, worker threads included (src/site/build/3-record-pages.ts). So this module and everything it
 * imports is plain TypeScript for Node: no astro:* or Vite-only imports, no import.meta.env (which is why it does not
 * use src/site/model/records.ts, and why the base path and site URL come in `ctx`).
 *
 * Safety, as in field-value.ts: every record string goes through `text` (html-escaper's `escape`, the escaper Astro
 * uses for text), and the only markup written is fixed tags and class names. Record data is only ever text, never
 * markup, an attribute name or a URL: links go to the site's own paths (`SitePaths`, record ids percent-encoded) or
 * to fragments of the page. The one piece of HTML not built here is the echo, which the caller renders with the
 * core's untrusted-Markdown renderer (`ctx.echoHtml`). One deliberate difference from the Astro page, which no valid
 * record reaches: a key fact links to its browse page only for a value the schema allows, so that record text never
 * becomes part of a URL; any other value is shown as text.
 *
 * Files: this one is the entry point (the types the callers use, and the page's parts in page order); the parts, a
 * few small functions each, are in record-page/: page.ts (what the parts share: the page's facts worked out once,
 * which field goes where, field accessors, links), head.ts (breadcrumb, header, the archive's notices), facts.ts (key
 * facts, table of contents), submitted.ts (the submitter's words), boundary.ts and sections.ts (what the record
 * states about itself, and the file). As one file it was 600 lines; split, each part reads on its own.
 */
import type { ClassificationEntry, GuardianEntry } from '../../core/publish/archive-views.ts';
import type { RecordLogView } from '../../core/publish/records.ts';
import type { RecordSummary } from '../model/archive-model.ts';
import type { SitePaths } from '../model/paths.ts';
import { claimGateSection } from './record-page/claim-gate.ts';
import { keyFacts, tableOfContents } from './record-page/facts.ts';
import { banners, breadcrumb, header } from './record-page/head.ts';
import { pageOf } from './record-page/page.ts';
import {
  agentSection,
  authorshipSection,
  boundarySection,
  classificationSection,
  discoverySection,
  extensionsSection,
  fileSection,
  otherFieldsSection,
  verificationSection,
} from './record-page/sections.ts';
import { claimSection } from './record-page/claim.ts';
import { submittedText, submitterLists } from './record-page/submitted.ts';
import { classificationUpdatesSection, guardianBanner, guardianSection } from './record-page/guardian.ts';

export interface RecordPageInput {
  entry: { id: string; path: string; archiveDate: string | null; sha256: string; record: Readonly<Record<string, unknown>> };
  /** The archive record that this record's linked_verification_report names, if it is one. */
  linkedReport: RecordSummary | undefined;
  /** The records whose linked_verification_report names this one. */
  linkedFrom: readonly RecordSummary[];
  /** Ids of the archive records this (superseded) record's superseded_reason names. */
  supersededBy: readonly string[];
  /** Ids of the records whose superseded_reason names this one. */
  supersedes: readonly string[];
  /** The id of the record this correction corrects (DECISIONS 16), when it is one of the archive. */
  corrects: string | undefined;
  /** Ids of the corrections of this record. */
  correctedBy: readonly string[];
  /** The record's leaves in the transparency log, when the archive has one. */
  log?: RecordLogView;
  /** The guardian verification result the build derived for this record (DECISIONS 25), with what failed in its proof. */
  guardian?: RecordGuardian;
  /** The guardian this record registered or retired (its guardian id), when it did. */
  guardianOf?: string;
  /** The effective classification and the updates naming this record (DECISIONS 26), when any does. */
  classification?: ClassificationEntry;
  /** For a classification update: the archive record it names. */
  reclassifies?: string;
}

export interface RecordGuardian extends GuardianEntry {
  errors: readonly string[];
}

export interface RecordPageContext {
  paths: SitePaths;
  /** Astro's `site` (absolute base URL) or undefined; used for the `curl … | sha256sum` line. */
  site: string | undefined;
  /** The sanitised HTML of an echo text (the core's untrusted-Markdown renderer, or its result rendered ahead). */
  echoHtml(echo: string): string;
}

export interface RenderedRecordPage {
  /** The page's title: the id, and the agent's self-described name if any (the frame adds the site's name). */
  title: string;
  /** The page's description (plain text; the frame escapes it). */
  description: string;
  /** Everything inside <main>. */
  main: string;
}

const RECORD_BOUNDARY =
  '<p class="record-boundary">A statement by its submitter about what they understood. Not authority, not an ' +
  'amendment, not an endorsement, not verification unless it carries bounded verification evidence. The original ' +
  'inscribed records prevail.</p>';

const SECTION_NOTE =
  '<p class="section-note">Everything below is what the record states about itself (self-reported, not checked by the archive).</p>';

export function renderRecordPage(input: RecordPageInput, ctx: RecordPageContext): RenderedRecordPage {
  const page = pageOf(input, ctx);
  const { agentName, kindLabel } = page;
  const { id, archiveDate } = input.entry;
  return {
    title: `${id}${agentName ? ` · ${agentName}` : ''}`,
    description: `${kindLabel} ${id}${agentName ? ` by ${agentName}` : ''}${archiveDate ? `, archived ${archiveDate}` : ''}: a non-authoritative record.`,
    main:
      breadcrumb(page) +
      header(page) +
      banners(page) +
      guardianBanner(page) +
      RECORD_BOUNDARY +
      keyFacts(page) +
      claimGateSection(page) +
      guardianSection(page) +
      classificationUpdatesSection(page) +
      tableOfContents(page) +
      submittedText(page) +
      submitterLists(page) +
      SECTION_NOTE +
      agentSection(page) +
      discoverySection(page) +
      classificationSection(page) +
      claimSection(page) +
      verificationSection(page) +
      boundarySection(page) +
      authorshipSection(page) +
      extensionsSection(page) +
      otherFieldsSection(page) +
      fileSection(page),
  };
}
