/**
 * The bundled builder as the site publishes it (not part of the bundle): its bytes for
 * /downloads/record-chain-builder.mjs and its name, version, size and SHA-256 for /api/record-chain-builder.json.
 * The bundle is made by src/builder/bundle.ts: in a build, by the site build itself as it starts (the pages wait for
 * it, bundleBeingMade); for `npm run dev`, by scripts/build-builder.ts first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { siteConfig } from '../core/config.ts';

export const BUILDER_DOWNLOAD_PATH = '/downloads/record-chain-builder.mjs';
/** Where scripts/build-builder.ts writes the bundle, relative to the project root. */
export const BUILDER_BUNDLE_FILE = 'dist-builder/record-chain-builder.mjs';

export interface BuilderRelease {
  schema: 'service.record-chain-builder.v1';
  name: 'record-chain-builder.mjs';
  version: string;
  /** Bytes. */
  size: number;
  sha256: string;
  /** Absolute URL of the download. */
  url: string;
  requires: 'node >=20';
  usage: string;
}

// The bundle being made by this process's build, if it is: the integration (src/site/build/integration.ts) starts it,
// and the pages, which Astro bundles with their own copy of this module, wait for it through a process-wide slot.
const BEING_MADE = Symbol.for('echo-archive.builder-bundle');
const slot = globalThis as { [BEING_MADE]?: Promise<unknown> };

/** Says that the bundle is being made (by the build that runs in this process): the pages read it once it is. */
export function bundleBeingMade(making: Promise<unknown> | undefined): void {
  slot[BEING_MADE] = making;
}

/** The bundle's bytes, once the build has made it; `root` is the project root (Astro's `root`, or a path). */
export async function builderBundleBytes(root: URL | string): Promise<Uint8Array<ArrayBuffer>> {
  await slot[BEING_MADE];
  const base = typeof root === 'string' ? root : fileURLToPath(root);
  const file = `${base.replace(/\/+$/, '')}/${BUILDER_BUNDLE_FILE}`;
  if (!existsSync(file)) {
    throw new Error(`${BUILDER_BUNDLE_FILE} is missing: run "node scripts/build-builder.ts" (npm run dev does; a build makes it itself)`);
  }
  return new Uint8Array(readFileSync(file));
}

/** The version baked into the bundle (its banner's first comment line names it). */
function bundleVersion(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 400)).toString('utf8');
  const m = /record-chain-builder (\S+) /.exec(head);
  if (!m) throw new Error(`${BUILDER_BUNDLE_FILE} has no version banner: rebuild it with scripts/build-builder.ts`);
  return m[1]!;
}

export async function builderRelease(root: URL | string, baseUrl = siteConfig().baseUrl): Promise<BuilderRelease> {
  const bytes = await builderBundleBytes(root);
  return {
    schema: 'service.record-chain-builder.v1',
    name: 'record-chain-builder.mjs',
    version: bundleVersion(bytes),
    size: bytes.byteLength,
    sha256: sha256Hex(bytes),
    url: `${baseUrl}${BUILDER_DOWNLOAD_PATH}`,
    requires: 'node >=20',
    usage: 'node record-chain-builder.mjs --help',
  };
}
