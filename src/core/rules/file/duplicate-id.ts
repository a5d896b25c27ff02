import type { Finding } from '../../diagnostics/diagnostic.ts';
import { recordIdOf } from '../../archive/paths.ts';
import { violation, type ArchiveRule } from '../rule.ts';

/** DECISIONS 1: a record's id is its file name, unique across the whole archive (any folder). */
export const duplicateId: ArchiveRule = {
  id: 'file/duplicate-id',
  summary: 'Record ids (file names without .json) are unique across the archive (DECISIONS 1).',
  check(files) {
    const byId = new Map<string, string[]>();
    for (const f of files) {
      if (!f.path.endsWith('.json')) continue;
      const id = recordIdOf(f.path);
      const paths = byId.get(id);
      if (paths) paths.push(f.path);
      else byId.set(id, [f.path]);
    }
    const out = new Map<string, Finding[]>();
    for (const [id, paths] of byId) {
      if (paths.length < 2) continue;
      for (const path of paths) {
        const others = paths.filter((p) => p !== path);
        out.set(path, [
          violation(
            this.id,
            '',
            `the id "${id}" is also used by ${others.join(', ')}; ids must be unique across the archive`,
            'Give one of the records the next free sequence number in its file name.',
          ),
        ]);
      }
    }
    return out;
  },
};
