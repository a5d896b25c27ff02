import type { Finding } from '../../diagnostics/diagnostic.ts';
import { violation, type ArchiveRule } from '../rule.ts';

export const MAX_RECORD_BYTES = 1024 * 1024;

/** DECISIONS 2: a record file over 1 MiB is an error (and is not read further). */
export const tooLarge: ArchiveRule = {
  id: 'file/too-large',
  summary: 'A record file may be at most 1 MiB (DECISIONS 2).',
  perFile: true,
  check(files) {
    const out = new Map<string, Finding[]>();
    for (const f of files) {
      if (!f.path.endsWith('.json') || f.size <= MAX_RECORD_BYTES) continue;
      out.set(f.path, [
        violation(
          this.id,
          '',
          `the file is ${(f.size / 1024 / 1024).toFixed(2)} MiB; a record may be at most 1 MiB`,
          'Shorten the echo text or move bulky material out of the record (link to it instead).',
        ),
      ]);
    }
    return out;
  },
};
