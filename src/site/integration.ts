/**
 * The archive's Astro integration: reads and validates the archive once, when the build starts, and publishes the
 * raw record files when it ends.
 *
 * - `astro:build:start`: the core validates the whole archive (src/site/archive-source.ts). An invalid archive stops
 *   the build here, before anything is bundled, with the command line's own report. The pages render from this
 *   result (handed over, not read again). The echo texts start rendering on the other cores (src/site/echo-prerender.ts).
 * - `astro:build:done`: /records/<id>.json, the record files byte for byte (src/site/raw-records.ts).
 *
 * `astro dev` skips both: its pages read the archive on each request, and src/pages/records/[id].json.ts serves
 * the raw files.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { recordsRoot } from '../core/config.ts';
import { handOverArchive, handedOverArchive, readSiteArchive } from './archive-source.ts';
import { startEchoPrerender, type EchoPrerender } from './echo-prerender.ts';
import { publishRawRecords } from './raw-records.ts';

export function echoArchive(): AstroIntegration {
  let root = '';
  let echoes: EchoPrerender | undefined;
  return {
    name: 'echo-archive',
    hooks: {
      'astro:config:setup': ({ config }) => {
        // RECORDS_DIR is read from the project root (not the shell's working directory).
        root = resolve(fileURLToPath(config.root), recordsRoot());
      },
      'astro:build:start': async ({ logger }) => {
        const records = await readSiteArchive(root, logger);
        handOverArchive(records);
        echoes = startEchoPrerender(records, logger);
      },
      'astro:build:done': async ({ dir, logger }) => {
        await echoes?.stop();
        echoes = undefined;
        const records = handedOverArchive() ?? (await readSiteArchive(root, logger));
        const { linked, copied } = await publishRawRecords(records, fileURLToPath(dir));
        logger.info(`Published ${records.length} raw record${records.length === 1 ? '' : 's'} (${linked} linked, ${copied} copied)`);
        handOverArchive(undefined);
      },
    },
  };
}
