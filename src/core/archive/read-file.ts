/**
 * One file of the archive read: its bytes and the file they were read from (load-archive.ts's LoadedFile), and a
 * .json file within the size limit parsed strictly (when first asked for: archiveFileOf). Whoever reads, this thread or the one that reads ahead
 * (read-ahead.ts), the bytes become a LoadedFile here.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { Finding } from '../diagnostics/diagnostic.ts';
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
  if (bytes.length > MAX_RECORD_BYTES) return { path, id: recordIdOf(path), size: bytes.length, identity };
  return new ParsedWhenAsked(path, bytes, identity, sha256);
}

/**
 * archiveFileOf's file: its record and findings are getters of the class, not accessors defined on each file, which
 * made every one a slow object of its own kind (0.1 s of the main thread for 100,000 files, in a build's reading).
 */
class ParsedWhenAsked implements LoadedFile {
  readonly path: string;
  readonly id: string;
  readonly size: number;
  readonly identity: string;
  readonly bytes: Buffer;
  readonly sha256?: string;
  #parsed: StrictParseResult | undefined;

  constructor(path: string, bytes: Buffer, identity: string, sha256: string | undefined) {
    this.path = path;
    this.id = recordIdOf(path);
    this.size = bytes.length;
    this.identity = identity;
    this.bytes = bytes;
    if (sha256 !== undefined) this.sha256 = sha256;
  }

  get readFindings(): Finding[] {
    return this.#parse().findings;
  }

  get record(): JsonObject | undefined {
    const parsed = this.#parse();
    return parsed.isObject ? (parsed.value as JsonObject) : undefined;
  }

  #parse(): StrictParseResult {
    return (this.#parsed ??= parseStrictJson(this.bytes));
  }
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
