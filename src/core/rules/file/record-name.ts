import type { Finding } from '../../diagnostics/diagnostic.ts';
import { archiveDateOf, recordIdOf } from '../../archive/paths.ts';
import type { ArchiveRule } from '../rule.ts';

/** DECISIONS 1: the conventional name carries the archive date; another name is accepted, with a warning. */
export const recordName: ArchiveRule = {
  id: 'file/record-name',
  summary: 'Record files are named echo-YYYY-MM-DD-NNNNNN.json; another name is a warning and leaves the record undated (DECISIONS 1).',
  check(files) {
    const out = new Map<string, Finding[]>();
    for (const f of files) {
      if (!f.path.endsWith('.json')) continue;
      const id = recordIdOf(f.path);
      if (archiveDateOf(id) !== undefined) continue;
      out.set(f.path, [
        {
          rule: this.id,
          severity: 'warning',
          message: `"${id}" is not a conventional record name (echo-YYYY-MM-DD-NNNNNN), so the record has no archive date`,
          hint: 'Name new records echo-<archive date>-<6-digit sequence>.json, e.g. echo-2026-11-22-000001.json.',
          pointer: '',
        },
      ]);
    }
    return out;
  },
};
