/**
 * The browse script's bundle (src/site/build/1-browse-script.ts), kept between builds: bundling it starts esbuild's
 * service, about 70 ms of the main thread before the build can read the archive, for bytes that change only with
 * the code. Kept as `<dir>/<code>.<sha256>.js`, where `code` is the fingerprint of the code the pages are made from
 * (code-fingerprint.ts, PAGE_CODE: the script's sources and the lockfile that pins esbuild are in it) and `sha256`
 * that of the bytes, which are checked before use; a damaged or foreign file is ignored and made again. The folder
 * holds the last build's bundle only.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../../core/crypto/sha256.ts';

/** The bundle's bytes kept at `dir` for the code `code`, or `make()`'s, kept there for the next build. */
export function cachedBrowseScriptBytes(dir: string, code: string, make: () => Uint8Array): Uint8Array {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // no folder yet: nothing kept
  }
  for (const name of names) {
    const m = /^([0-9a-f]{64})\.([0-9a-f]{64})\.js$/.exec(name);
    if (m?.[1] !== code) continue;
    try {
      const bytes = readFileSync(join(dir, name));
      if (sha256Hex(bytes) === m[2]) return bytes;
    } catch {
      // removed in between (another build): made again below
    }
  }
  const bytes = make();
  const name = `${code}.${sha256Hex(bytes)}.js`;
  const temporary = join(dir, `${name}.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, bytes);
    renameSync(temporary, join(dir, name));
    for (const other of names) if (other !== name) rmSync(join(dir, other), { recursive: true, force: true });
  } catch {
    rmSync(temporary, { force: true }); // a cache that cannot be written costs the next build time, never this one
  }
  return bytes;
}
