import type { Finding } from '../../diagnostics/diagnostic.ts';
import { isArchiveReadme } from '../../archive/paths.ts';
import { violation, type ArchiveRule } from '../rule.ts';

/** DECISIONS 1: records are .json files; a README.md is the only other file allowed. */
export const notJson: ArchiveRule = {
  id: 'file/not-json',
  summary: 'Only .json record files and README.md may live in the archive (DECISIONS 1).',
  perFile: true,
  check(files) {
    const out = new Map<string, Finding[]>();
    for (const f of files) {
      const name = f.path.slice(f.path.lastIndexOf('/') + 1);
      if (f.path.endsWith('.json') || isArchiveReadme(f.path)) continue;
      out.set(f.path, [
        violation(
          this.id,
          '',
          `"${name}" is not a record: only .json files (and README.md) belong in the archive`,
          name.toLowerCase().endsWith('.json')
            ? 'Rename the file so that it ends in lowercase ".json".'
            : 'Move the file out of the records folder, or save the record as a .json file.',
        ),
      ]);
    }
    return out;
  },
};
