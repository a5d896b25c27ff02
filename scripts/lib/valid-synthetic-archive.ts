/**
 * The synthetic archive (synthetic-archive.ts) with its deliberately invalid files removed, for the benchmarks that
 * build the site (which rightly refuses an invalid archive). Apart from synthetic-archive.ts so that its users
 * (tests that only want the PRNG, bench:validate) do not load the validator.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { generateArchive, type GeneratedArchive } from './synthetic-archive.ts';

/** generateArchive under `root`, then every invalid file removed: what was generated, how many removed and left. */
export async function generateValidArchive(root: string, n: number): Promise<GeneratedArchive & { removed: number; valid: number }> {
  const gen = generateArchive(root, n);
  const report = await validateArchive(root);
  let removed = 0;
  for (const f of report.files) {
    if (!f.valid) {
      rmSync(join(root, f.path));
      removed++;
    }
  }
  return { ...gen, removed, valid: gen.files - removed };
}
