/**
 * Publishing the raw records: /records/<id>.json is the record file itself, byte for byte.
 *
 * The build hard-links each validated file into the output instead of rendering 10,000s of endpoint routes: a link
 * is byte-identical by construction and costs one metadata write, where Astro's per-route render and write costs
 * about ten times as much on a slow disk. Where a link is impossible (another file system, or a file system without
 * links) the file is copied. Either way the published file is the file that was validated and hashed; a file that
 * changed on disk since then fails the build (the published file is hashed again), never publishes unchecked bytes.
 * A record file replaced since validation read it (a new file at its path) leaves the published file the one
 * validation read, checked by its hash; the next build publishes the new one.
 * Not hashed again: a published file that is the very file validation read (its device and inode) and whose change
 * time is before the build started (src/core/util/change-time.ts): validation read it after that, so what it hashed
 * is what the file holds.
 */
import { readFileSync } from 'node:fs';
import { fileIdentity } from '../../core/util/file-identity.ts';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import type { JsonObject } from '../../core/rules/rule.ts';
import { changedBefore } from '../../core/util/change-time.ts';
import { linkIfChanged } from '../../core/util/update-in-place.ts';

/** What publishing needs of a record: where its validated file is, and the hash of the bytes validated. */
export interface RawRecordFile {
  id: string;
  /** Path from the archive root, for messages. */
  path: string;
  /** Absolute path of the record file. */
  file: string;
  sha256: string;
  /** The file validation read, as `<device>:<inode>` (LoadedFile.identity). */
  identity?: string;
}

/** A raw record's file, from the folder of record pages (the site's records/). */
const RAW_SUFFIX = '.json';
export const rawRecordName = (id: string): string => `${id}${RAW_SUFFIX}`;

/** The id whose raw file `name` would be (rawRecordName), if it is such a name. */
export const rawRecordIdOf = (name: string): string | undefined => (name.endsWith(RAW_SUFFIX) ? name.slice(0, -RAW_SUFFIX.length) : undefined);

/**
 * Places the record file at `<dir>/<id>.json` (the build does this beside each record page, on the record-page
 * threads, src/site/build/3-record-pages-worker.ts; the site path is /records/<id>.json): 'linked' or 'copied', and
 * whether the file changed. A file that is the record's already (the previous build's, src/core/util/update-in-place.ts),
 * or the very file validation read, is left as it is. The published bytes are checked against the validated hash and returned (the page is rendered
 * from them, parsedRecord), unless the published file is known to hold them: it is the file validation read and last
 * changed before `validatedAfter` (when the build started, before validation read anything, as the output's file
 * system stamps files: fileSystemNow; a published file that is a link is on that file system).
 */
export function publishRawRecord(record: RawRecordFile, dir: string, validatedAfter?: bigint): { how: 'linked' | 'copied'; changed: boolean; bytes?: Buffer } {
  const target = `${dir}/${rawRecordName(record.id)}`; // not path.join: see 3-record-pages-worker.ts
  // Left as it is when it is the very file validation read (the last build's link), without looking at the record file
  // again; that file's status then says whether its bytes are those validated.
  const { how, changed, status } = linkIfChanged(record.file, target, record.identity === undefined ? {} : { identity: record.identity });
  if (validatedAfter !== undefined && status !== undefined && fileIdentity(status) === record.identity && changedBefore(status, validatedAfter)) return { how, changed };
  return { how, changed, bytes: validatedBytes(record, target) };
}

/**
 * The record in validated bytes, parsed by the core's strict parser as validation parsed it. The build keeps no
 * parsed record with its echo text (src/site/build/2-read-archive.ts): a record's page reads it here, from the file.
 */
export function parsedRecord(bytes: Buffer): JsonObject {
  const { value, isObject } = parseStrictJson(bytes);
  if (!isObject) throw new Error('a validated record is no longer a JSON object');
  return value as JsonObject;
}

/** The record file's bytes for `astro dev`'s /records/<id>.json, checked as the build checks what it publishes. */
export function readRawRecord(record: RawRecordFile): Buffer {
  return validatedBytes(record, record.file);
}

/** The bytes at `file`, which must be the validated bytes: a record edited on disk since validation is an error. */
function validatedBytes(record: RawRecordFile, file: string): Buffer {
  const bytes = readFileSync(file);
  if (sha256Hex(bytes) !== record.sha256) {
    throw new Error(`record ${record.id} (${record.path}) changed on disk after it was validated; build again`);
  }
  return bytes;
}
