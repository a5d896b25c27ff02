/**
 * Bundles the record-chain builder (src/builder/bin.ts and the core it imports: schemas, rules, Ajv) into one
 * dependency-free ES module for Node ≥ 20, with the site configuration baked in. Not part of the bundle.
 *
 * The site build does this itself when it starts (src/site/build/integration.ts), beside Astro's own start, and the
 * two pages that publish the bundle wait for it (src/builder/release.ts); `npm run dev` and the tests run it first
 * (scripts/build-builder.ts). The bundle is deterministic: the same sources and configuration give the same bytes.
 */
import { chmodSync, renameSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSiteConfig } from '../core/config.ts';
import { BUILDER_BUNDLE_FILE } from './release.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BUILDER_BUNDLE = resolve(REPO_ROOT, BUILDER_BUNDLE_FILE);

export interface BuildBuilderOptions {
  outfile?: string;
  env?: Record<string, string | undefined>;
}

/** Writes the bundle to `outfile` (default: dist-builder/record-chain-builder.mjs in this project); its path. */
export async function buildBuilder({ outfile = BUILDER_BUNDLE, env = process.env }: BuildBuilderOptions = {}): Promise<string> {
  const { baseUrl, gatewayUrl } = buildSiteConfig(env, (m) => process.stderr.write(`build-builder: ${m}\n`));
  const pkg = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; license?: string };
  const config = { baseUrl, gatewayUrl, version: pkg.version };
  mkdirSync(dirname(outfile), { recursive: true });
  // Written beside the target, then renamed: a build reading the bundle never sees half a file.
  const partial = `${outfile}.${process.pid}.partial`;
  await build({
    entryPoints: [resolve(REPO_ROOT, 'src/builder/bin.ts')],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    charset: 'utf8',
    legalComments: 'eof',
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
    define: { __RECORD_CHAIN_BUILDER_CONFIG__: JSON.stringify(config) },
    banner: {
      js: [
        '#!/usr/bin/env node',
        `// record-chain-builder ${config.version} (${pkg.license ?? 'MIT'}): build, check, submit and read back record-chain submissions.`,
        `// Site ${baseUrl}, gateway ${gatewayUrl}. One file, no dependencies, Node >= 20. Usage: node record-chain-builder.mjs --help`,
        '// Bundled from the echo-archive sources with esbuild (src/builder, src/core, schemas/); third-party licences at the end.',
        "import { createRequire as __builderCreateRequire } from 'node:module';",
        'const require = __builderCreateRequire(import.meta.url);',
      ].join('\n'),
    },
  });
  chmodSync(partial, 0o755);
  renameSync(partial, outfile);
  return outfile;
}
