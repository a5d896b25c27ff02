/**
 * One file of the archive read: its bytes and the file they were read from (load-archive.ts's LoadedFile), and a
 * .json file within the size limit parsed strictly (when first asked for: archiveFileOf). Whoever reads, this thread or the one that reads ahead
 * (read-ahead.ts), the bytes become a LoadedFile here.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { parseStrictJson, type StrictParseResult } from '../json/strict-parse.ts';
import { MAX_RECORD_BYTES } from '../rules/file/too-large.ts';
import type { JsonObject } from '../rules/rule.ts';
import { fileIdentity } from '../util/file-identity.ts';
import type { LoadedFile } from './load-archive.ts';
import { recordIdOf } from './paths.ts';

/** One file of the archive, read and (a .json file within the size limit) parsed strictly. */
export function readArchiveFile(root: string, path: string): LoadedFile {
  if (!path.endsWith('.json')) return { path, id: recordIdOf(path), size: 0 };
  const { bytes, identity } = readWithIdentity(`${root}/${path}`);
  return archiveFileOf(path, bytes, identity);
}

/**
 * A .json file of the archive from the bytes read from it and the file they were read from: within the size limit,
 * parsed strictly when its record or its reading's findings are first asked for. `sha256` is the bytes' hash when the
 * reader worked it out.
 *
 * Parsed when asked for, not when read: a file whose verdict and whose site data come from the build's caches (an
 * unchanged record) is never decoded or parsed, and those were about half of reading an archive. Once parsed, the
 * record and the findings stay; the decoded text does not (on 10,000 records it doubled what the garbage collector
 * must carry, and only files with findings need it again: textOf).
 */
export function archiveFileOf(path: string, bytes: Buffer, identity: string, sha256?: string): LoadedFile {
  const file: LoadedFile = { path, id: recordIdOf(path), size: bytes.length, identity };
  if (bytes.length > MAX_RECORD_BYTES) return file;
  file.bytes = bytes;
  if (sha256 !== undefined) file.sha256 = sha256;
  let parsed: StrictParseResult | undefined;
  const parse = (): StrictParseResult => (parsed ??= parseStrictJson(bytes));
  Object.defineProperties(file, {
    readFindings: { get: () => parse().findings, enumerable: true, configurable: true },
    record: { get: () => (parse().isObject ? (parse().value as JsonObject) : undefined), enumerable: true, configurable: true },
  });
  return file;
}

/** A file's bytes and identity (device and inode, from the very descriptor the bytes were read through). */
function readWithIdentity(path: string): { bytes: Buffer; identity: string } {
  const fd = openSync(path, 'r');
  try {
    const identity = fileIdentity(fstatSync(fd, { bigint: true }));
    return { bytes: readFileSync(fd), identity };
  } finally {
    closeSync(fd);
  }
}
