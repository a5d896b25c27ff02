/**
 * A build cache of one line per archive file, kept from one build to the next in one file: what an earlier build
 * worked out from a file's bytes (the validator's verdict: validation-cache.ts; what the site keeps of a record:
 * site-record-cache.ts), found again by the file's path and the SHA-256 of its bytes.
 *
 * The file answers only for the code that wrote it: its header carries the fingerprint of that code, and a file of
 * another fingerprint is ignored whole. It carries the SHA-256 of its own content too: a damaged, truncated or foreign
 * file is ignored, never trusted (the hash guards against damage, not against someone who can write the project's
 * folders). A build that keeps other lines than it holds writes it anew, as the lines come, to a temporary file renamed
 * over the old one (the file does not grow with files that are gone); a build that keeps the same lines leaves it alone.
 *
 * Format, chosen so that loading 100,000 lines costs one hash and one scan for line ends, not 100,000 parses:
 *   <magic>
 *   code <fingerprint>
 *   sha256 <SHA-256 of everything after this line>
 *   <path as a JSON string> TAB <SHA-256 of the file's bytes> TAB <payload: text without line breaks>   (one line per file)
 * A line's text is decoded only when its file asks for it: the body stays the bytes it was read as.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../../core/util/process-alive.ts';

/** Length of a hex SHA-256. */
const HEX = 64;
const TAB = 9;
const NEWLINE = 10;

export interface KeyedLines {
  /** Where the file is. */
  readonly file: string;
  /** How many lines the file held when opened (0 when there was none or it was ignored). */
  readonly loaded: number;
  /** Why a file that was there was ignored (damaged, truncated, foreign, other code), if it was. */
  readonly ignored?: string;
  /** The payload kept for the file at `path` whose bytes hash to `sha256`, if any. */
  get(path: string, sha256: string): string | undefined;
  /** Keeps `payload` for the file at `path` whose bytes hash to `sha256`, in this build's lines (once per path). */
  put(path: string, sha256: string, payload: string): void;
  /** Replaces the file with this build's lines, atomically, unless they are the lines it holds. */
  save(): void;
}

export interface KeyedLinesKind {
  /** The file's first line, naming its kind and format. */
  magic: string;
  /** What the file is and what a line holds, for the reason a file is ignored ("validation cache", "verdict"). */
  noun: string;
  lineNoun: string;
}

/** The lines kept in `dir`/`name`, a file of `kind`, answering only for code of fingerprint `code`. */
export function openKeyedLines(dir: string, name: string, kind: KeyedLinesKind, code: string): KeyedLines {
  const file = join(dir, name);
  const { magic } = kind;
  const { body, starts, ignored, hashed } = load(file, kind, code);
  removeDeadTemporaries(dir, name);
  const count = starts.length - 1;
  const lineAt = (i: number): Buffer => body.subarray(starts[i]!, starts[i + 1]! - 1);
  // A build asks for the files in archive order, the order they were written in: each line is first looked for where
  // the last one was found, and only a file added, removed or moved sends the search to an index by hash. A file
  // changed in place (its line at the cursor, with another hash) or added at the end (every line taken in order) is
  // known to have no line without one: the index of 100,000 hashes cost an append 0.1 s of the main thread.
  let cursor = 0;
  let inOrder = true;
  let byHash: Map<string, number | number[]> | undefined;
  const find = (key: Buffer, sha256: string): number => {
    if (cursor < count) {
      const line = lineAt(cursor);
      if (isLineOf(line, key, sha256)) return cursor;
      // The file's line for this path, for other bytes: a path has one line, so none is this file's; the next file's
      // line is the one after it.
      if (isLineOfPath(line, key)) {
        cursor++;
        return -1;
      }
    }
    byHash ??= indexByHash(count, lineAt);
    const at = byHash.get(sha256);
    const found = typeof at === 'number' ? (isLineOf(lineAt(at), key, sha256) ? at : -1) : (at?.find((i) => isLineOf(lineAt(i), key, sha256)) ?? -1);
    if (found >= 0) inOrder = false;
    return found;
  };
  // This build's lines. While each is the file's next line as it stands, nothing is written (a build that keeps the
  // same lines leaves the file alone); from the first that is not, the new file is written as the lines come (those
  // before it are the file's first lines, copied at once), so that no build holds its lines in memory: at 100,000
  // records the site records' lines are 125 MB.
  const paths = new Set<string>();
  let same = true;
  let writer: LineWriter | undefined;
  let found: { path: string; sha256: string; at: number; payload: string } | undefined;
  const header = (sha256: string) => `${magic}\ncode ${code}\nsha256 ${sha256}\n`;
  const startWriting = (): LineWriter => {
    // Every line of the file kept, first (an append): its hash goes on from the one worked out when it was loaded,
    // rather than over its 125 MB again (at 100,000 records).
    const whole = paths.size === count ? hashed : undefined;
    const w = new LineWriter(dir, name, Buffer.byteLength(header('0'.repeat(HEX))), whole?.copy());
    w.add(body.subarray(0, starts[paths.size]!), whole !== undefined);
    return w;
  };
  return {
    file,
    loaded: count,
    ...(ignored === undefined ? {} : { ignored }),
    get(path, sha256) {
      // Every line taken in order, each by its own file: a file not put yet has none (a file added at the end).
      if (inOrder && cursor === count && !paths.has(path)) return undefined;
      const key = Buffer.from(JSON.stringify(path));
      const at = find(key, sha256);
      if (at < 0) return undefined;
      cursor = at + 1;
      found = { path, sha256, at, payload: lineAt(at).toString('utf8', key.length + HEX + 2) };
      return found.payload;
    },
    put(path, sha256, payload) {
      if (payload.includes('\n')) throw new Error(`a keyed line's payload holds a line break (${path})`);
      if (paths.has(path)) throw new Error(`a keyed line was put twice for ${path}`);
      const kept = found !== undefined && found.path === path && found.sha256 === sha256 && found.payload === payload ? found.at : undefined;
      found = undefined;
      if (same && kept === paths.size) {
        paths.add(path);
        return;
      }
      if (same) writer = startWriting();
      same = false;
      paths.add(path);
      writer!.add(kept === undefined ? Buffer.from(`${JSON.stringify(path)}\t${sha256}\t${payload}\n`, 'utf8') : body.subarray(starts[kept]!, starts[kept + 1]!));
    },
    save() {
      if (same && paths.size === count && ignored === undefined) return;
      (writer ??= startWriting()).finish(file, header);
    },
  };
}

/**
 * A new file of lines, written as they come to a temporary file beside it (under a header of a known length, written
 * last, once the content's hash is known) and renamed over the old file when finished. An error while writing is kept
 * for finish() to throw: a cache that cannot be written must not stop the build that is using it.
 */
class LineWriter {
  private fd: number | undefined;
  private readonly temp: string;
  private readonly hash: Hash;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failure: unknown;

  /** `hashed`: the hash fed with the bytes that will be added first, already (LineWriter.add's `hashed`). */
  constructor(dir: string, name: string, headerLength: number, hashed?: Hash) {
    this.hash = hashed ?? createHash('sha256');
    this.temp = join(dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      this.fd = openSync(this.temp, 'wx');
      writeSync(this.fd, Buffer.alloc(headerLength));
    } catch (err) {
      this.fail(err);
    }
  }

  /** Adds `bytes` to the file; `hashed`: they were fed to the hash the writer was made with. */
  add(bytes: Buffer, hashed = false): void {
    if (this.fd === undefined) return;
    if (!hashed) this.hash.update(bytes);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= 1 << 20) this.flush();
  }

  finish(file: string, header: (sha256: string) => string): void {
    this.flush();
    if (this.fd !== undefined) {
      try {
        writeSync(this.fd, header(this.hash.digest('hex')), 0);
        closeSync(this.fd);
        this.fd = undefined;
        renameSync(this.temp, file);
      } catch (err) {
        this.fail(err);
      }
    }
    if (this.failure !== undefined) throw this.failure;
  }

  private flush(): void {
    if (this.fd === undefined || this.pendingBytes === 0) return;
    try {
      // Gathered by the system call, not copied into one buffer first: the first lines of the file, unchanged, come
      // as one piece of the old body (at 100,000 records an append's 125 MB, copied for nothing).
      writevSync(this.fd, this.pending);
    } catch (err) {
      this.fail(err);
    }
    this.pending = [];
    this.pendingBytes = 0;
  }

  private fail(err: unknown): void {
    this.failure ??= err;
    try {
      if (this.fd !== undefined) closeSync(this.fd);
      rmSync(this.temp, { force: true });
    } catch {
      // nothing was made, or nothing more can be done: the first error is the one to report
    }
    this.fd = undefined;
  }
}

/** Removes temporary files of this store that builds which died left (their process is gone). */
function removeDeadTemporaries(dir: string, name: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  const temporary = new RegExp(`^\\.${name.replace(/\./g, '\\.')}\\.(\\d+)\\.\\d+\\.tmp$`);
  for (const entry of entries) {
    const pid = temporary.exec(entry)?.[1];
    if (pid !== undefined && !isProcessAlive(Number(pid))) rmSync(join(dir, entry), { force: true });
  }
}

/**
 * The body of the file and where each line starts (one more: where the next would), or none, and why, when it cannot
 * be trusted; with the body's hash, fed and not finished, for a file written anew that begins with the whole body.
 */
function load(file: string, { magic, noun, lineNoun }: KeyedLinesKind, code: string): { body: Buffer; starts: number[]; ignored?: string; hashed?: Hash } {
  const none = (ignored?: string) => ({ body: Buffer.alloc(0), starts: [0], ...(ignored === undefined ? {} : { ignored }) });
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return none();
    return none(`it cannot be read (${(err as Error).message})`);
  }
  const header = headerOf(bytes, magic);
  if (header === undefined) return none(`it is not a ${noun} of this format (damaged or foreign)`);
  if (header.code !== code) return none('it was made by other code (the code, its schemas or dependencies changed)');
  const body = bytes.subarray(header.length);
  const hashed = createHash('sha256').update(body);
  if (hashed.copy().digest('hex') !== header.sha256) return none('its content does not match its hash (damaged or truncated)');
  if (body.length > 0 && body[body.length - 1] !== NEWLINE) return none(`its last ${lineNoun} is not whole (damaged or foreign)`);
  const starts = [0];
  for (let at = body.indexOf(NEWLINE); at >= 0; at = body.indexOf(NEWLINE, at + 1)) {
    const start = starts[starts.length - 1]!;
    const tab = body.indexOf(TAB, start);
    if (tab < 0 || tab > at || body[tab + HEX + 1] !== TAB || tab + HEX + 1 > at) return none(`a line of it is not a ${lineNoun} (foreign)`);
    starts.push(at + 1);
  }
  return { body, starts, hashed };
}

/** Line numbers by the SHA-256 they name (several for files of the same bytes at other paths). */
function indexByHash(count: number, lineAt: (i: number) => Buffer): Map<string, number | number[]> {
  const index = new Map<string, number | number[]>();
  for (let i = 0; i < count; i++) {
    const line = lineAt(i);
    const tab = line.indexOf(TAB);
    const sha256 = line.toString('latin1', tab + 1, tab + 1 + HEX);
    const before = index.get(sha256);
    if (before === undefined) index.set(sha256, i);
    else if (typeof before === 'number') index.set(sha256, [before, i]);
    else before.push(i);
  }
  return index;
}

/** Whether `line` is that of the file whose path, as a JSON string's bytes, is `key`, for bytes of hash `sha256`. */
function isLineOf(line: Buffer, key: Buffer, sha256: string): boolean {
  return (
    line.length > key.length + HEX + 1 &&
    line[key.length] === TAB &&
    line[key.length + HEX + 1] === TAB &&
    line.subarray(0, key.length).equals(key) &&
    line.toString('latin1', key.length + 1, key.length + 1 + HEX) === sha256
  );
}

/** Whether `line` is that of the file whose path, as a JSON string's bytes, is `key` (for whatever bytes). */
function isLineOfPath(line: Buffer, key: Buffer): boolean {
  return line.length > key.length && line[key.length] === TAB && line.subarray(0, key.length).equals(key);
}

function headerOf(bytes: Buffer, magic: string): { code: string; sha256: string; length: number } | undefined {
  // The header is ASCII and short: look at its first bytes only.
  const match = new RegExp(`^${magic}\\ncode ([0-9a-f]{${HEX}})\\nsha256 ([0-9a-f]{${HEX}})\\n`).exec(bytes.subarray(0, magic.length + 2 * HEX + 20).toString('latin1'));
  return match ? { code: match[1]!, sha256: match[2]!, length: match[0].length } : undefined;
}
