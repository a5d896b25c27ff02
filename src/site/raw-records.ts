/**
 * Publishing the raw records: /records/<id>.json is the record file itself, byte for byte.
 *
 * The build hard-links each validated file into the output instead of rendering 10,000s of endpoint routes: a link
 * is byte-identical by construction and costs one metadata write, where Astro's per-route render and write costs
 * about ten times as much on a slow disk. Where a link is impossible (another file system, or a file system without
 * links) the file is copied. Either way the published file is the file that was validated and hashed; a file that
 * changed on disk since then fails the build (each published file is hashed again), never publishes unchecked bytes.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { linkOrCopy } from '../core/util/link-or-copy.ts';
import type { SiteRecord } from './archive-source.ts';

/** How many files are linked at once: enough to keep the disk busy, few enough to stay within open-file limits. */
const PARALLEL = 8;

export interface RawRecordsResult {
  linked: number;
  copied: number;
}

/** Places each record file at `<dir>/<id>.json` (the build stages them, src/site/integration.ts; the site path is /records/<id>.json). */
export async function publishRawRecords(records: readonly SiteRecord[], dir: string): Promise<RawRecordsResult> {
  await mkdir(dir, { recursive: true });
  const result: RawRecordsResult = { linked: 0, copied: 0 };
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const record = records[next++]!;
      const target = join(dir, `${record.id}.json`);
      result[(await linkOrCopy(record.file, target)) ? 'linked' : 'copied']++;
      // The published bytes must be the validated bytes: a record edited on disk during the build is an error.
      if (sha256Hex(await readFile(target)) !== record.sha256) {
        throw new Error(`record ${record.id} (${record.path}) changed on disk during the build; build again`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, records.length) }, worker));
  return result;
}
