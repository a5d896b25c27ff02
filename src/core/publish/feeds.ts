/**
 * The record feeds: /feeds/records.atom (Atom, RFC 4287) and /feeds/records.json (JSON Feed 1.1), the newest
 * records by archive date. Dates are archive dates (midnight UTC of the date in the record's name), never the build
 * time, so a feed changes only when the records do. Records without an archive date (unconventional names) are
 * left out: the archive has no date for them and the feed does not invent one. Ties on a date go to the higher id.
 *
 * Record text is data: the title is made from the id and the kind; the summary is the record's
 * understanding_summary, plain text (never HTML), cut to SUMMARY_MAX code points and introduced as the submitter's
 * words.
 */
import type { SiteConfig } from '../config.ts';
import { recordFlags } from './facets.ts';
import { datedNewestFirst, recordJsonUrl, recordPageUrl, stringField, type PublishRecord } from './records.ts';
import { escapeXml, oneLine, truncate } from './text.ts';

export const ATOM_FEED_PATH = '/feeds/records.atom';
export const JSON_FEED_PATH = '/feeds/records.json';
export const FEED_LIMIT = 50;
export const SUMMARY_MAX = 600;
/** Atom requires a feed date; with no dated record it is this fixed date, never the build time. */
export const EMPTY_FEED_DATE = '1970-01-01T00:00:00Z';

const FEED_TITLE = 'Echo archive: newest records';
const FEED_DESCRIPTION =
  'New Echo records by archive date. Records are non-authoritative statements by their submitters; the original inscribed records prevail. Summaries are the submitters\' words, not the archive\'s.';
export const SUBMITTER_MARKER = "Submitter's summary (their words, not the archive's): ";

export interface FeedOptions {
  /** How many records, newest first. Default FEED_LIMIT. */
  limit?: number;
}

export interface FeedItem {
  id: string;
  pageUrl: string;
  jsonUrl: string;
  title: string;
  /** RFC 3339, midnight UTC of the archive date. */
  date: string;
  recordKind: string;
  archiveStatus: string;
  withdrawn: boolean;
  sha256: string;
  archivePath: string;
  archiveDate: string;
  /** The record's understanding_summary, cut, or null. Untrusted text. */
  submittedSummary: string | null;
  /** The summary line shown to readers, with the submitter marker. */
  summary: string;
  /** A plain-text description: facts from the archive, then the marked summary. */
  contentText: string;
}

export function feedItems(records: readonly PublishRecord[], config: SiteConfig, options: FeedOptions = {}): FeedItem[] {
  const limit = options.limit ?? FEED_LIMIT;
  return datedNewestFirst(records)
    .slice(0, limit)
    .map((r) => {
      const kind = stringField(r.record, 'record_kind') ?? 'record';
      const status = stringField(r.record, 'archive_status') ?? 'unknown';
      const { withdrawn } = recordFlags(r.record);
      const raw = stringField(r.record, 'understanding_summary');
      const submittedSummary = raw === null ? null : truncate(raw.trim(), SUMMARY_MAX);
      const summary = submittedSummary === null ? 'The record has no understanding_summary.' : `${SUBMITTER_MARKER}"${oneLine(submittedSummary)}"`;
      const date = `${r.archiveDate}T00:00:00Z`;
      const jsonUrl = config.baseUrl + recordJsonUrl(r.id);
      return {
        id: r.id,
        pageUrl: config.baseUrl + recordPageUrl(r.id),
        jsonUrl,
        title: `${r.id} (${kind}${withdrawn ? ', withdrawn' : ''})`,
        date,
        recordKind: kind,
        archiveStatus: status,
        withdrawn,
        sha256: r.sha256,
        archivePath: r.path,
        archiveDate: r.archiveDate!,
        submittedSummary,
        summary,
        contentText: [
          `Record ${r.id}: ${kind}, archive status ${status}${withdrawn ? ', withdrawn (verification_status invalidated)' : ''}, archived ${r.archiveDate}.`,
          `Raw JSON: ${jsonUrl} (SHA-256 ${r.sha256})`,
          summary,
        ].join('\n'),
      };
    });
}

/** /feeds/records.atom */
export function atomFeed(records: readonly PublishRecord[], config: SiteConfig, options: FeedOptions = {}): string {
  const items = feedItems(records, config, options);
  const base = config.baseUrl;
  const self = base + ATOM_FEED_PATH;
  const schemaUrl = `${base}/api/echo-record-schema.v3.json`;
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${escapeXml(self)}</id>`,
    `  <title type="text">${escapeXml(FEED_TITLE)}</title>`,
    `  <subtitle type="text">${escapeXml(FEED_DESCRIPTION)}</subtitle>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    `  <link rel="alternate" type="application/feed+json" href="${escapeXml(base + JSON_FEED_PATH)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${base}/browse/`)}"/>`,
    `  <updated>${items[0]?.date ?? EMPTY_FEED_DATE}</updated>`,
    `  <author><name>Echo archive</name><uri>${escapeXml(`${base}/`)}</uri></author>`,
    '  <generator>echo-archive</generator>',
  ];
  for (const item of items) {
    lines.push(
      '  <entry>',
      `    <id>${escapeXml(item.pageUrl)}</id>`,
      `    <title type="text">${escapeXml(item.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(item.pageUrl)}"/>`,
      `    <link rel="related" type="application/json" href="${escapeXml(item.jsonUrl)}"/>`,
      `    <published>${item.date}</published>`,
      `    <updated>${item.date}</updated>`,
      `    <category term="${escapeXml(item.recordKind)}" scheme="${escapeXml(`${schemaUrl}#record_kind`)}" label="record_kind"/>`,
      `    <category term="${escapeXml(item.archiveStatus)}" scheme="${escapeXml(`${schemaUrl}#archive_status`)}" label="archive_status"/>`,
      `    <summary type="text">${escapeXml(item.summary)}</summary>`,
      `    <content type="text">${escapeXml(item.contentText)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

/** /feeds/records.json (JSON Feed 1.1) */
export function jsonFeed(records: readonly PublishRecord[], config: SiteConfig, options: FeedOptions = {}): string {
  const base = config.baseUrl;
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: FEED_TITLE,
    home_page_url: `${base}/`,
    feed_url: base + JSON_FEED_PATH,
    description: FEED_DESCRIPTION,
    authors: [{ name: 'Echo archive', url: `${base}/` }],
    language: 'en',
    items: feedItems(records, config, options).map((item) => ({
      id: item.pageUrl,
      url: item.pageUrl,
      external_url: item.jsonUrl,
      title: item.title,
      summary: item.summary,
      content_text: item.contentText,
      date_published: item.date,
      tags: [item.recordKind, item.archiveStatus],
      // JSON Feed extension (keys starting with "_" are for publishers); "submitted" holds the submitter's words.
      _echo_archive: {
        record_json: item.jsonUrl,
        sha256: item.sha256,
        archive_path: item.archivePath,
        archive_date: item.archiveDate,
        withdrawn: item.withdrawn,
        submitted: { understanding_summary: item.submittedSummary },
      },
    })),
  };
  return JSON.stringify(feed, null, 2) + '\n';
}
