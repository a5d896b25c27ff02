/**
 * A fingerprint of the code that makes a cached output: the SHA-256 over the bytes of every file under the given
 * project paths (with their paths), the lockfile's pinned dependencies and the Node.js that runs (its ICU and Unicode
 * versions decide how text is handled). A cache entry keyed with it is never reused by other code.
 *
 * Whole folders rather than each output's exact imports: a build cannot see its import graph cheaply, and a
 * fingerprint that missed a file would reuse a stale page. Changing any file of, say, src/ makes every record page
 * render again once; a pull request that only adds records changes none of them.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { canonicalSha256, sha256Hex } from '../../../core/crypto/sha256.ts';
import { compareCodePoints } from '../../../core/util/compare.ts';

/** The code the validator's findings depend on: the core, the schemas, the published rules documents, the dependencies. */
export const VALIDATION_CODE: readonly string[] = ['src/core', 'schemas', 'documents', 'package-lock.json'];

/** The code a record page depends on: all of the source, the schemas and documents, the public files, the configuration. */
export const PAGE_CODE: readonly string[] = ['src', 'schemas', 'documents', 'public', 'package.json', 'package-lock.json', 'astro.config.mjs'];

const memo = new Map<string, string>();

/** The fingerprint of `paths` (files or folders, relative to `repo`; a missing one counts as missing). Memoised per process. */
export function codeFingerprint(repo: string, paths: readonly string[]): string {
  const memoKey = JSON.stringify([repo, paths]);
  let fingerprint = memo.get(memoKey);
  if (fingerprint === undefined) {
    const files: [string, string][] = [];
    for (const path of paths) {
      const absolute = join(repo, path);
      const stat = statSync(absolute, { throwIfNoEntry: false });
      if (stat === undefined) files.push([path, 'missing']);
      else if (stat.isFile()) files.push([path, sha256Hex(readFileSync(absolute))]);
      else {
        const entries = (readdirSync(absolute, { recursive: true, withFileTypes: true }) as Dirent[]).filter((d) => d.isFile());
        for (const d of entries) {
          const file = join(d.parentPath, d.name);
          files.push([relative(repo, file).split(sep).join('/'), sha256Hex(readFileSync(file))]);
        }
      }
    }
    files.sort((a, b) => compareCodePoints(a[0], b[0]));
    const { node, icu, unicode } = process.versions;
    fingerprint = canonicalSha256({ files, runtime: { node, icu: icu ?? null, unicode: unicode ?? null } });
    memo.set(memoKey, fingerprint);
  }
  return fingerprint;
}
