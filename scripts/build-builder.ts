/**
 * Bundles the record-chain builder into one file (src/builder/bundle.ts):
 *
 *   node scripts/build-builder.ts [--out FILE]      (default dist-builder/record-chain-builder.mjs)
 *
 * `npm run dev` runs it before `astro dev`; `npm run build` needs it not: the site build bundles the builder itself
 * (src/site/build/integration.ts). The site serves the file at /downloads/record-chain-builder.mjs and its size and
 * SHA-256 at /api/record-chain-builder.json.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBuilder } from '../src/builder/bundle.ts';

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
