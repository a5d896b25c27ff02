/**
 * Bundles the record-chain builder (src/builder/bin.ts and the core it imports: schemas, rules, Ajv) into one
 * dependency-free ES module for Node ≥ 20, with the site configuration baked in:
 *
 *   node scripts/build-builder.ts [--out FILE]      (default dist-builder/record-chain-builder.mjs)
 *
 * `npm run build` runs it before `astro build`; the site serves the file at /downloads/record-chain-builder.mjs and
 * its size and SHA-256 at /api/record-chain-builder.json. The bundle is deterministic: the same sources and
 * configuration give the same bytes.
 */
import { chmodSync, renameSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSiteConfig } from '../src/core/config.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUILDER_BUNDLE = resolve(REPO_ROOT, 'dist-builder/record-chain-builder.mjs');

export interface BuildBuilderOptions {
  outfile?: string;
  env?: Record<string, string | undefined>;
}

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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const outfile = at !== -1 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : undefined;
  buildBuilder(outfile ? { outfile } : {}).then(
    (file) => process.stdout.write(`record-chain builder: ${file}\n`),
    (err: unknown) => {
      process.stderr.write(`build-builder: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
