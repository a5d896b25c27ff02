/**
 * The public index (/api/index.json, DECISIONS "Published documents"): one entry per record, in archive-path
 * order (code points), with the SHA-256 of the record file's exact bytes. A function of the records alone: no
 * build time, no configuration, so two builds of the same records give the same bytes.
 *
 * Below `maxBytes` it is one document, `{schema, version, notes, record_count, counts, records}`. Above, the
 * entries move to shard files /api/index/<n>.json (n from 1), each within `maxBytes`, filled in order (so adding
 * records at the end of the archive leaves earlier shards unchanged), and /api/index.json becomes a small manifest
 * `{schema, version, notes, record_count, counts, shards: [{url, sha256, records, first_id, last_id}]}`.
 * The JSON Schema of all three documents is schemas/public-index-schema.v1.json.
 */
import { sha256Hex } from '../crypto/sha256.ts';
import type { ClaimGateStatus } from '../claim-gate/output.ts';
import { comparableAllowedLevel, recordGateOutput } from '../record/gate-output.ts';
import { archiveCounts, recordFlags, type ArchiveCounts } from './facets.ts';
import { documentWithItemLines, documentWithLines, utf8Length } from './json.ts';
import { lifecycleLinks, type LifecycleLinks } from '../record/lifecycle-links.ts';
import { recordTypeOf } from '../record/record-chain-fields.ts';
import { classificationEntry, deriveArchiveViews, effectiveRecord, guardianEntry, type ArchiveViews, type ClassificationEntry, type GuardianEntry } from './archive-views.ts';
import { byArchivePath, objectField, recordJsonUrl, recordPageUrl, stringField, type PublishRecord } from './records.ts';
import { runToEnd } from '../util/time-slices.ts';

export const PUBLIC_INDEX_PATH = '/api/index.json';
export const PUBLIC_INDEX_SCHEMA = 'service.public-index.v1';
export const PUBLIC_INDEX_SHARD_SCHEMA = 'service.public-index-shard.v1';
export const PUBLIC_INDEX_VERSION = 'v1';

/** Default size above which the index is sharded: 2 MiB (a shard never exceeds it either). */
export const DEFAULT_INDEX_SHARD_BYTES = 2 * 1024 * 1024;

/** The environment variable that overrides the shard size for a build (bytes), e.g. to try sharding on few records. */
export const INDEX_SHARD_BYTES_ENV = 'INDEX_SHARD_BYTES';

/** Where a record-chain record carries its submission hash (agreed with the builder and gateway). */
export const SUBMISSION_SHA256_LOCATION = ['extensions', 'record_chain', 'submission_sha256'] as const;

export const PUBLIC_INDEX_NOTES: readonly string[] = [
  'Records are non-authoritative statements by their submitters; the original inscribed records prevail.',
  'Paths beginning with a slash are relative to the base URL of the site that serves this index.',
  'sha256 is the SHA-256 of the exact bytes served at url; raw records are byte-identical to the archived files.',
  'Values under "submitted" are copied verbatim from the record: the submitter\'s words, untrusted, not the archive\'s.',
  'submission_sha256 (record-chain records) is the SHA-256 of the JCS canonical submitted record; a record is finally included once its entry is listed here.',
  'leaf_index is the transparency-log leaf of the record\'s current bytes (/api/log.json says how to verify it); null while they are not logged.',
  'independence_class, counts_as_attestation and counts follow the effective classification (classification updates, DECISIONS 26); sha256 and leaf_index stay those of the unchanged file. In classification.history, submitted holds the proposer\'s own words (proposed_by, reason, basis), untrusted.',
  'guardian (DECISIONS 25) proves key possession only: guardianship changes no authority, verification level or count.',
];

export interface PublicIndexEntry {
  id: string;
  url: string;
  page: string;
  archive_path: string;
  archive_date: string | null;
  sha256: string;
  record_kind: string | null;
  /** A record-chain record's type (DECISIONS 19), else null. */
  record_type: string | null;
  archive_status: string | null;
  /** For a superseded record, the ids of the records that supersede it (corrections naming it, ids its reason names); else null. */
  superseded_by: string[] | null;
  context_depth: string | null;
  assessment_state: string | null;
  verification_level: string | null;
  verification_scope_label: string | null;
  /**
   * The record's own claim_gate_output, read (gate-output.ts): its verdict as the gate output schema's status enum
   * spells it (null: no status, or none of the gate's; the verbatim one is under submitted) and its allowed level.
   */
  claim_gate_status: ClaimGateStatus | null;
  claim_gate_allowed_level: string | null;
  /** The effective independence class (the record's own unless a classification update changed it, DECISIONS 26). */
  independence_class: string | null;
  withdrawn: boolean;
  counts_as_attestation: boolean;
  historical_only_level: boolean;
  submission_sha256: string | null;
  /** The transparency-log leaf of the record's current bytes (null: not logged yet, or the archive has no log). */
  leaf_index: number | null;
  /** The guardian verification result, summarised (DECISIONS 25); null for a record without one. */
  guardian: GuardianEntry | null;
  /** The effective classification and the history of updates naming the record (DECISIONS 26); null when none does. */
  classification: ClassificationEntry | null;
  /** Free text from the record, verbatim: the submitter's words. */
  submitted: { verification_status: string | null; claim_gate_status: string | null };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The submission hash a record-chain record carries, when it is a well-formed SHA-256; else null. */
export function submissionSha256Of(record: Record<string, unknown>): string | null {
  const extensions = objectField(record, SUBMISSION_SHA256_LOCATION[0]);
  const chain = extensions && objectField(extensions, SUBMISSION_SHA256_LOCATION[1]);
  const value = chain && stringField(chain, SUBMISSION_SHA256_LOCATION[2]);
  return value && SHA256_HEX.test(value) ? value : null;
}

export function indexEntry({ id, path, archiveDate, sha256, record, log }: PublishRecord, links: LifecycleLinks, views?: ArchiveViews): PublicIndexEntry {
  const gate = recordGateOutput(record);
  const effective = effectiveRecord(views, id, record);
  return {
    id,
    url: recordJsonUrl(id),
    page: recordPageUrl(id),
    archive_path: path,
    archive_date: archiveDate,
    sha256,
    record_kind: stringField(record, 'record_kind'),
    record_type: recordTypeOf(record),
    archive_status: stringField(record, 'archive_status'),
    superseded_by: record.archive_status === 'superseded' ? (links.supersededBy.get(id) ?? []) : null,
    context_depth: stringField(record, 'context_depth'),
    assessment_state: stringField(record, 'assessment_state'),
    verification_level: stringField(record, 'verification_level'),
    verification_scope_label: stringField(record, 'verification_scope_label'),
    claim_gate_status: gate?.gateStatus ?? null,
    claim_gate_allowed_level: comparableAllowedLevel(gate) ?? null,
    independence_class: stringField(effective, 'independence_class'),
    ...recordFlags(effective),
    submission_sha256: submissionSha256Of(record),
    leaf_index: log?.leafIndex ?? null,
    guardian: guardianEntry(views?.registry.results.get(id)),
    classification: classificationEntry(views?.classifications.get(id)),
    submitted: { verification_status: stringField(record, 'verification_status'), claim_gate_status: gate?.status ?? null },
  };
}

export interface PublishedFile {
  /** Public path, e.g. /api/index.json or /api/index/1.json. */
  path: string;
  text: string;
  sha256: string;
  /**
   * A file that holds exactly the text's bytes, checked (a kept shard's cache entry), which a writer may link rather
   * than write; the text is then read from it only when asked for.
   */
  source?: FileSource;
}

/** A file that holds a published file's bytes: its path, and its identity when it was known unchanged (fileIdentity). */
export interface FileSource {
  file: string;
  identity?: string;
}

export interface ShardRef {
  url: string;
  sha256: string;
  records: number;
  first_id: string;
  last_id: string;
}

export interface PublicIndex {
  /** /api/index.json: the whole index, or the manifest when sharded. */
  index: PublishedFile;
  /** /api/index/<n>.json, n = 1, 2, …; empty when the index is one document. */
  shards: PublishedFile[];
  /** Every record's entry; with `kept` shards (PublicIndexOptions), only the entries of the shards made anew. */
  entries: PublicIndexEntry[];
  counts: ArchiveCounts;
}

/**
 * A shard an earlier build made, kept for a later one (src/site/build/cache/public-index-cache.ts): its key (shardKeys),
 * how many records it holds, and its text with its SHA-256, checked (undefined if it is gone or damaged), with the
 * file that holds it when there is one (the text may be a getter that reads it).
 */
export interface KeptShard {
  key: string;
  records: number;
  read(): Omit<PublishedFile, 'path'> | undefined;
}

/** An earlier build's shards, in order, and where this build's are kept for the next. */
export interface KeptShards {
  shards: readonly KeptShard[];
  keep(shards: readonly { key: string; records: number; file: PublishedFile }[]): void;
}

export interface PublicIndexOptions {
  /** Size in bytes above which the index is sharded; also the most a shard may hold. Default 2 MiB. */
  maxBytes?: number;
  /** The build's guardian registry and classification views (deriveArchiveViews of these records); derived here when not given. */
  views?: ArchiveViews;
  /**
   * An earlier build's shards: each one, from the first, whose records' inputs are unchanged is taken as it is
   * rather than made again (shardKeys). An append changes the last shard alone.
   */
  kept?: KeptShards;
}

function file(path: string, text: string): PublishedFile {
  return { path, text, sha256: sha256Hex(text) };
}

function head(counts: ArchiveCounts, recordCount: number) {
  return {
    schema: PUBLIC_INDEX_SCHEMA,
    version: PUBLIC_INDEX_VERSION,
    notes: PUBLIC_INDEX_NOTES,
    record_count: recordCount,
    counts,
  };
}

export function shardPath(n: number): string {
  return `/api/index/${n}.json`;
}

export function buildPublicIndex(records: readonly PublishRecord[], options: PublicIndexOptions = {}): PublicIndex {
  return runToEnd(publicIndexSteps(records, options));
}

/** Entries between two steps of publicIndexSteps. */
const ENTRIES_PER_STEP = 2_000;

/**
 * buildPublicIndex's work as steps, for a caller that runs it in slices of its thread's time (runInSlices): a step
 * per ENTRIES_PER_STEP entries made and per shard (at 99,006 records the whole took 2 s in one piece).
 */
export function* publicIndexSteps(records: readonly PublishRecord[], options: PublicIndexOptions = {}): Generator<void, PublicIndex> {
  const maxBytes = options.maxBytes ?? DEFAULT_INDEX_SHARD_BYTES;
  const sorted = byArchivePath(records);
  assertUniqueIds(sorted);
  yield;
  const links = lifecycleLinks(sorted.map((r) => ({ id: r.id, record: r.record })));
  const views = options.views ?? deriveArchiveViews(sorted);
  yield;
  // DECISIONS 26: counts follow the effective classification.
  const counts = archiveCounts(sorted.map((r) => effectiveRecord(views, r.id, r.record)));
  // Keys only for a caller that keeps shards: the others would make them for nothing.
  const keyOf = options.kept && shardKeys(sorted, links, views, maxBytes);
  // An earlier build's shards, from the first, while each one's inputs are unchanged: taken as they are. A shard's key
  // covers the record after it too (the one whose entry did not fit), so its last shard, cut where the records ended,
  // is taken only while they still end there.
  const reused: { key: string; records: number; file: PublishedFile }[] = [];
  let from = 0;
  for (const shard of options.kept?.shards ?? []) {
    if (from + shard.records > sorted.length || keyOf!(reused.length, from, from + shard.records) !== shard.key) break;
    const kept = shard.read();
    if (kept === undefined) break;
    // Not spread: the text may be a getter that reads the file holding it, which a writer links instead.
    const published: PublishedFile = {
      path: shardPath(reused.length + 1),
      sha256: kept.sha256,
      get text() {
        return kept.text;
      },
      ...(kept.source === undefined ? {} : { source: kept.source }),
    };
    reused.push({ key: shard.key, records: shard.records, file: published });
    from += shard.records;
    yield;
  }
  const entries: PublicIndexEntry[] = [];
  for (const r of from === 0 ? sorted : sorted.slice(from)) {
    entries.push(indexEntry(r, links, views));
    if (entries.length % ENTRIES_PER_STEP === 0) yield;
  }

  // Each entry's JSON is made once: it decides the shards and is their text. It was made three times, once for a
  // single document of the whole archive that was only measured (in a profile of an append at 99,013 records, making
  // the documents' text was 1.2 s of the public index's 2.7 s).
  const lines: string[] = [];
  for (const entry of entries) {
    lines.push(JSON.stringify(entry));
    if (lines.length % ENTRIES_PER_STEP === 0) yield;
  }
  const sizes = lines.map(utf8Length);
  // The single document holds every line, so it cannot fit when they alone are too large. A shard taken from an
  // earlier build was cut because the next entry did not fit, so the lines are too many for one document then (its
  // head is larger than a shard's).
  if (from === 0 && sizes.reduce((sum, n) => sum + n, 0) <= maxBytes) {
    const single = documentWithLines(head(counts, entries.length), 'records', lines);
    if (utf8Length(single) <= maxBytes) {
      options.kept?.keep([]);
      return { index: file(PUBLIC_INDEX_PATH, single), shards: [], entries, counts };
    }
  }

  // The rest cut as if from the start: a shard's cut depends only on the sizes of its entries and the next one's.
  const made: { key: string; records: number; file: PublishedFile }[] = [];
  for (const [start, end] of shardEntries(sizes, maxBytes)) {
    yield;
    const n = reused.length + made.length + 1;
    made.push({
      key: keyOf ? keyOf(n - 1, from + start, from + end) : '',
      records: end - start,
      file: file(
        shardPath(n),
        documentWithLines(
          { schema: PUBLIC_INDEX_SHARD_SCHEMA, version: PUBLIC_INDEX_VERSION, index: PUBLIC_INDEX_PATH, shard: n, record_count: end - start },
          'records',
          lines.slice(start, end),
        ),
      ),
    });
  }
  const shards = [...reused, ...made];
  options.kept?.keep(shards);
  let at = 0;
  const refs: ShardRef[] = shards.map(({ file: shard, records: count }) => {
    const ref = { url: shard.path, sha256: shard.sha256, records: count, first_id: sorted[at]!.id, last_id: sorted[at + count - 1]!.id };
    at += count;
    return ref;
  });
  const manifest = JSON.stringify({ ...head(counts, sorted.length), shards: refs }, null, 2) + '\n';
  return { index: file(PUBLIC_INDEX_PATH, manifest), shards: shards.map((s) => s.file), entries, counts };
}

/**
 * The key of shard number `n` (from 0) holding records start … end - 1: what the entries of that stretch of records
 * are made from. For each record of the stretch, and the one after it (whose entry, not fitting, ended the shard), all
 * that indexEntry reads but the record's parsed fields, which its SHA-256 stands for: its id, path, date, hash, log
 * leaf, the records superseding it, its guardian and classification views; with the shard's number and the size
 * limit. The code that makes the entries is not in it: a caller keeps shards for one code
 * (src/site/build/cache/public-index-cache.ts).
 */
function shardKeys(sorted: readonly PublishRecord[], links: LifecycleLinks, views: ArchiveViews, maxBytes: number): (n: number, start: number, end: number) => string {
  const line = (i: number): string => {
    const { id, path, archiveDate, sha256, log } = sorted[i]!;
    const classification = views.classifications.get(id);
    return JSON.stringify([
      id,
      path,
      archiveDate,
      sha256,
      log?.leafIndex ?? null,
      links.supersededBy.get(id) ?? null,
      guardianEntry(views.registry.results.get(id)),
      classification === undefined ? null : classificationEntry(classification),
    ]);
  };
  return (n, start, end) => {
    const lines = [JSON.stringify([SHARD_KEY_FORMAT, n, maxBytes, end - start])];
    for (let i = start; i <= end && i < sorted.length; i++) lines.push(line(i));
    return sha256Hex(lines.join('\n'));
  };
}

/** Bumped when what a shard's key covers changes. */
const SHARD_KEY_FORMAT = 'public-index shard 1';

/**
 * Entries in order (by the UTF-8 size of each one's JSON), cut greedily into shards whose document stays within
 * `maxBytes`, as [start, end) ranges. A single entry that alone exceeds the limit gets a shard of its own (records
 * are at most 1 MiB, so this only happens with a tiny limit).
 */
function shardEntries(sizes: readonly number[], maxBytes: number): [start: number, end: number][] {
  // Upper bound of a shard document's bytes besides its entries, the same for every archive (so that records
  // added at the end never move earlier shard boundaries): the head with a 9-digit shard number and count.
  const overhead = utf8Length(
    documentWithItemLines(
      { schema: PUBLIC_INDEX_SHARD_SCHEMA, version: PUBLIC_INDEX_VERSION, index: PUBLIC_INDEX_PATH, shard: 999_999_999, record_count: 999_999_999 },
      'records',
      [],
    ),
  ) + 1;
  const chunks: [number, number][] = [];
  let start = 0;
  let size = overhead;
  sizes.forEach((entrySize, i) => {
    const bytes = entrySize + 2; // the entry, its comma and its newline
    if (i > start && size + bytes > maxBytes) {
      chunks.push([start, i]);
      start = i;
      size = overhead;
    }
    size += bytes;
  });
  if (start < sizes.length) chunks.push([start, sizes.length]);
  return chunks;
}

function assertUniqueIds(records: readonly PublishRecord[]): void {
  const seen = new Set<string>();
  for (const r of records) {
    if (seen.has(r.id)) throw new Error(`the public index needs unique record ids; ${JSON.stringify(r.id)} occurs twice`);
    seen.add(r.id);
  }
}

/** The shard size for a build: $INDEX_SHARD_BYTES when set to a positive integer, else the default. */
export function indexShardBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env[INDEX_SHARD_BYTES_ENV]?.trim();
  if (!raw) return DEFAULT_INDEX_SHARD_BYTES;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${INDEX_SHARD_BYTES_ENV} must be a positive integer (bytes), not ${JSON.stringify(raw)}`);
  return n;
}
