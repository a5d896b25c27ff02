/**
 * The site build's validation cache: the core's verdicts on single files (src/core/archive/verdict-cache.ts) kept
 * from one build to the next, so that a file whose bytes did not change is not judged again. One line per file in
 * `<build cache>/validation/verdicts.txt` (keyed-lines.ts: found by path and the SHA-256 of the bytes, answering only
 * for the validator's code, VALIDATION_CODE: the core, schemas, documents, dependencies, Node), whose payload is ""
 * for a file with no diagnostics that looked nothing up (most files), else JSON [diagnostics, looked-up files],
 * parsed only when its file asks for it.
 */
import { join } from 'node:path';
import type { FileVerdict, ValidationCache } from '../../../core/archive/verdict-cache.ts';
import { buildCacheRoot } from '../../../core/publish/build-cache.ts';
import { codeFingerprint, VALIDATION_CODE } from './code-fingerprint.ts';
import { openKeyedLines } from './keyed-lines.ts';

const KIND = { magic: 'echo-archive validation cache 1', noun: 'validation cache', lineNoun: 'verdict' };
const FILE_NAME = 'verdicts.txt';

export interface ValidationCacheFile extends ValidationCache {
  /** Where the file is. */
  readonly file: string;
  /** How many files' verdicts the file held when opened (0 when there was none or it was ignored). */
  readonly loaded: number;
  /** Why a file that was there was ignored (damaged, truncated, foreign, other code), if it was. */
  readonly ignored?: string;
  /** Replaces the file with this pass's verdicts (every one put, reused or made), atomically, unless they are those it holds. */
  save(): void;
}

/** The validation cache of the project at `repo`: under its build cache folder, keyed by its validator's code. */
export function openProjectValidationCache(repo: string, env: Record<string, string | undefined> = process.env): ValidationCacheFile {
  return openValidationCache(join(buildCacheRoot(repo, env), 'validation'), codeFingerprint(repo, VALIDATION_CODE));
}

/** The validation cache kept in `dir`, answering only for verdicts made by code of fingerprint `code`. */
export function openValidationCache(dir: string, code: string): ValidationCacheFile {
  const lines = openKeyedLines(dir, FILE_NAME, KIND, code);
  return {
    file: lines.file,
    loaded: lines.loaded,
    ...(lines.ignored === undefined ? {} : { ignored: lines.ignored }),
    get(path, sha256) {
      const payload = lines.get(path, sha256);
      if (payload === undefined) return undefined;
      return payload === '' ? { diagnostics: [], lookedUp: [] } : verdictOf(payload);
    },
    put(path, sha256, verdict) {
      const empty = verdict.diagnostics.length === 0 && verdict.lookedUp.length === 0;
      lines.put(path, sha256, empty ? '' : JSON.stringify([verdict.diagnostics, verdict.lookedUp]));
    },
    save: () => lines.save(),
  };
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
