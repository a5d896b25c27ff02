/**
 * The site build's validation cache: the core's verdicts on single files (src/core/archive/verdict-cache.ts) kept
 * from one build to the next in one file, `<build cache>/validation/verdicts.txt`, so that a file whose bytes did not
 * change is not judged again.
 *
 * The file answers only for the code that wrote it: its header carries the fingerprint of the validator's code
 * (VALIDATION_CODE: the core, schemas, documents, dependencies, Node), and a file of another fingerprint is ignored
 * whole. It carries the SHA-256 of its own content too: a damaged, truncated or foreign file is ignored, never
 * trusted (the hash guards against damage, not against someone who can write the project's folders). It is written
 * anew after each build that read the whole archive, with exactly that build's verdicts (the file does not grow with
 * files that are gone), to a temporary file renamed over the old one.
 *
 * Format, chosen so that loading 100,000 entries costs one hash and one split, not 100,000 JSON parses:
 *   echo-archive validation cache 1
 *   code <fingerprint>
 *   sha256 <SHA-256 of everything after this line>
 *   <path as a JSON string> TAB <SHA-256 of the file's bytes> TAB <"" or JSON [diagnostics, looked-up files]>   (one line per file)
 * A verdict's JSON is parsed only when its file asks for it; most files have no diagnostics and look nothing up.
 */
import { mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../../core/crypto/sha256.ts';
import type { FileVerdict, ValidationCache } from '../../../core/archive/verdict-cache.ts';
import { buildCacheRoot } from '../../../core/publish/build-cache.ts';
import { codeFingerprint, VALIDATION_CODE } from './code-fingerprint.ts';

const MAGIC = 'echo-archive validation cache 1';
const FILE_NAME = 'verdicts.txt';
/** Length of a hex SHA-256. */
const HEX = 64;

export interface ValidationCacheFile extends ValidationCache {
  /** Where the file is. */
  readonly file: string;
  /** How many files' verdicts the file held when opened (0 when there was none or it was ignored). */
  readonly loaded: number;
  /** Why a file that was there was ignored (damaged, truncated, foreign, other code), if it was. */
  readonly ignored?: string;
  /** Replaces the file with this pass's verdicts (those reused and those put), atomically. */
  save(): void;
}

/** The validation cache of the project at `repo`: under its build cache folder, keyed by its validator's code. */
export function openProjectValidationCache(repo: string, env: Record<string, string | undefined> = process.env): ValidationCacheFile {
  return openValidationCache(join(buildCacheRoot(repo, env), 'validation'), codeFingerprint(repo, VALIDATION_CODE));
}

/** The validation cache kept in `dir`, answering only for verdicts made by code of fingerprint `code`. */
export function openValidationCache(dir: string, code: string): ValidationCacheFile {
  const file = join(dir, FILE_NAME);
  const { lines, ignored } = load(file, code);
  // A build asks for the files in archive order, the order they were written in: each line is first looked for where
  // the last one was found, and only a file added, removed or changed sends the search to an index by hash.
  let cursor = 0;
  let byHash: Map<string, number | number[]> | undefined;
  const find = (name: string, sha256: string): number => {
    if (cursor < lines.length && isLineOf(lines[cursor]!, name, sha256)) return cursor;
    byHash ??= indexByHash(lines);
    const at = byHash.get(sha256);
    if (typeof at === 'number') return isLineOf(lines[at]!, name, sha256) ? at : -1;
    return at?.find((i) => isLineOf(lines[i]!, name, sha256)) ?? -1;
  };
  // This pass's verdicts, by path: reused ones keep their line, new ones replace it.
  const next = new Map<string, string>();
  return {
    file,
    loaded: lines.length,
    ...(ignored === undefined ? {} : { ignored }),
    get(path, sha256) {
      const name = JSON.stringify(path);
      const at = find(name, sha256);
      if (at < 0) return undefined;
      cursor = at + 1;
      const line = lines[at]!;
      const payloadAt = name.length + HEX + 2;
      const verdict = line.length === payloadAt ? { diagnostics: [], lookedUp: [] } : verdictOf(line.slice(payloadAt));
      if (verdict) next.set(path, line);
      return verdict;
    },
    put(path, sha256, verdict) {
      const empty = verdict.diagnostics.length === 0 && verdict.lookedUp.length === 0;
      next.set(path, `${JSON.stringify(path)}\t${sha256}\t${empty ? '' : JSON.stringify([verdict.diagnostics, verdict.lookedUp])}`);
    },
    save() {
      const lines = [...next.values()];
      const body = Buffer.from(lines.length === 0 ? '' : `${lines.join('\n')}\n`, 'utf8');
      const header = `${MAGIC}\ncode ${code}\nsha256 ${sha256Hex(body)}\n`;
      mkdirSync(dir, { recursive: true });
      const temp = join(dir, `.${FILE_NAME}.${process.pid}.${Date.now()}.tmp`);
      try {
        const fd = openSync(temp, 'wx');
        try {
          writeSync(fd, header);
          writeSync(fd, body);
        } finally {
          closeSync(fd);
        }
        renameSync(temp, file);
      } catch (err) {
        rmSync(temp, { force: true });
        throw err;
      }
    },
  };
}

/** The verdict lines of the file, in its order; or none, and why, when the file cannot be trusted. */
function load(file: string, code: string): { lines: string[]; ignored?: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [] };
    return { lines: [], ignored: `it cannot be read (${(err as Error).message})` };
  }
  const header = headerOf(bytes);
  if (header === undefined) return { lines: [], ignored: 'it is not a validation cache of this format (damaged or foreign)' };
  if (header.code !== code) return { lines: [], ignored: 'it was made by other code (the validator, its schemas or dependencies changed)' };
  const body = bytes.subarray(header.length);
  if (sha256Hex(body) !== header.sha256) return { lines: [], ignored: 'its content does not match its hash (damaged or truncated)' };
  const text = body.toString('utf8');
  const lines = text === '' ? [] : text.slice(0, text.endsWith('\n') ? -1 : undefined).split('\n');
  for (const line of lines) {
    const tab = line.indexOf('\t');
    if (tab < 0 || line.charCodeAt(tab + HEX + 1) !== 9 /* TAB */) return { lines: [], ignored: 'a line of it is not a verdict (foreign)' };
  }
  return { lines };
}

/** Line numbers by the SHA-256 they name (several for files of the same bytes at other paths). */
function indexByHash(lines: readonly string[]): Map<string, number | number[]> {
  const index = new Map<string, number | number[]>();
  lines.forEach((line, i) => {
    const tab = line.indexOf('\t');
    const sha256 = line.slice(tab + 1, tab + 1 + HEX);
    const before = index.get(sha256);
    if (before === undefined) index.set(sha256, i);
    else if (typeof before === 'number') index.set(sha256, [before, i]);
    else before.push(i);
  });
  return index;
}

/** Whether `line` is the verdict of the file whose path, as a JSON string, is `name`, for bytes of hash `sha256`. */
function isLineOf(line: string, name: string, sha256: string): boolean {
  return (
    line.startsWith(name) &&
    line.charCodeAt(name.length) === 9 /* TAB */ &&
    line.startsWith(sha256, name.length + 1) &&
    line.charCodeAt(name.length + HEX + 1) === 9
  );
}

const HEADER = new RegExp(`^${MAGIC}\\ncode ([0-9a-f]{${HEX}})\\nsha256 ([0-9a-f]{${HEX}})\\n`);

function headerOf(bytes: Buffer): { code: string; sha256: string; length: number } | undefined {
  // The header is ASCII and short: look at its first bytes only.
  const match = HEADER.exec(bytes.subarray(0, MAGIC.length + 2 * HEX + 20).toString('latin1'));
  return match ? { code: match[1]!, sha256: match[2]!, length: match[0].length } : undefined;
}

/** A kept verdict (JSON: [diagnostics, looked-up files]), or undefined if its JSON is not one. */
function verdictOf(payload: string): FileVerdict | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [diagnostics, lookedUp] = value as unknown[];
    if (!Array.isArray(diagnostics) || !Array.isArray(lookedUp)) return undefined;
    const pairs = lookedUp.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && (typeof p[1] === 'string' || p[1] === null));
    return pairs ? { diagnostics, lookedUp: lookedUp as FileVerdict['lookedUp'] } : undefined;
  } catch {
    return undefined;
  }
}
