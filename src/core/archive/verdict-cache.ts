/**
 * Earlier verdicts on single files, so that a file whose bytes did not change is not judged again (the site build
 * keeps them between builds: src/site/build/cache/validation-cache.ts). The core knows only this interface, not
 * where or how verdicts are kept.
 *
 * A file's own findings (its file rules, its strict reading, the schema and the record rules) depend on its path, its
 * bytes, the rules' code, and the files its rules looked up (a linked report). The key is the path and the SHA-256
 * of the bytes; the store answers only for verdicts made by the same code (that is its business); the looked-up files
 * are kept with the verdict and checked as they are now before it is reused. The rules over the whole listing
 * (duplicate ids) are not part of a verdict: they run over the whole archive every time.
 */
import { sha256Hex } from '../crypto/sha256.ts';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { ArchiveLookup, ArchiveRecord } from '../rules/rule.ts';
import type { LoadedFile } from './load-archive.ts';

/**
 * What a file looked up was when its verdict was made: the SHA-256 of its bytes; NO_RECORD_FILE for a file there
 * that could not be read as a record (too large: no bytes, so no record); null for no such record file.
 */
export type LookedUpState = string | null;

/** A looked-up file that exists but has no bytes (over the size limit), hence no record. */
const NO_RECORD_FILE = 'no-record';

export interface FileVerdict {
  /** The file's own diagnostics, placed in its text: every finding except those of the rules over the whole listing. */
  diagnostics: Diagnostic[];
  /** The files its rules looked up, [path, what it was then], in the order they were looked up. */
  lookedUp: [path: string, state: LookedUpState][];
}

export interface ValidationCache {
  /** The verdict kept for the file at `path` whose bytes hash to `sha256`, if any (made by the same code). */
  get(path: string, sha256: string): FileVerdict | undefined;
  /** Keeps the verdict on the file at `path` whose bytes hash to `sha256` for the next pass: one made, or one reused. */
  put(path: string, sha256: string, verdict: FileVerdict): void;
}

/**
 * The state of the archive's files as this validation pass sees them: the hash of each file read in the pass is
 * kept (by path), and a file not read yet is read through the pass's lookup when a verdict asks for it.
 */
export class LookedUpFiles {
  private readonly hashes = new Map<string, string>();
  private readonly lookup: ArchiveLookup;

  constructor(lookup: ArchiveLookup) {
    this.lookup = lookup;
  }

  /** Hashes a file being judged (it may be looked up later) and returns its SHA-256, or undefined without bytes. */
  hashOf(file: LoadedFile): string | undefined {
    if (!file.bytes) return undefined;
    const sha256 = file.sha256 ?? sha256Hex(file.bytes);
    this.hashes.set(file.path, sha256);
    return sha256;
  }

  /** Whether every file the verdict looked up is as it was then. */
  unchanged(lookedUp: FileVerdict['lookedUp']): boolean {
    return lookedUp.every(([path, state]) => this.stateOf(path, () => this.lookup.recordAt(path)) === state);
  }

  /**
   * The pass's lookup, noting each file looked up in `seen`; `seen` is set to undefined if a file's state cannot be
   * told (a record without bytes), and the verdict is then not kept.
   */
  recording(seen: { files: Map<string, LookedUpState> | undefined }): ArchiveLookup {
    return {
      recordAt: (path) => {
        const file = this.lookup.recordAt(path);
        const state = this.stateOf(path, () => file);
        if (state === undefined) seen.files = undefined;
        else seen.files?.set(path, state);
        return file;
      },
    };
  }

  private stateOf(path: string, find: () => ArchiveRecord | undefined): LookedUpState | undefined {
    const known = this.hashes.get(path);
    if (known !== undefined) return known;
    const file = find();
    if (file === undefined) return null;
    // Every lookup of a loaded or listed archive answers with its LoadedFiles (load-archive.ts).
    const { bytes } = file as LoadedFile;
    if (bytes === undefined) return file.record === undefined ? NO_RECORD_FILE : undefined;
    const sha256 = sha256Hex(bytes);
    this.hashes.set(path, sha256);
    return sha256;
  }
}
