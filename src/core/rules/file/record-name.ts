import type { Finding } from '../../diagnostics/diagnostic.ts';
import { archiveDateOf, recordIdOf } from '../../archive/paths.ts';
import type { ArchiveRule } from '../rule.ts';

/**
 * Characters that are invisible or change the direction of the text around them: controls (Cc), format characters
 * (Cf: bidirectional embeddings, overrides and isolates, zero-width space/joiners, the byte-order mark, the soft
 * hyphen), line and paragraph separators, and every other default-ignorable code point. In an id they make two
 * different records look alike, or reorder the archive's own text around the id wherever it is shown.
 */
const HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'gu');

const NAMES: Record<number, string> = {
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0x00ad: 'SOFT HYPHEN',
};

function codePoint(c: string): string {
  const cp = c.codePointAt(0)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return NAMES[cp] ? `${hex} (${NAMES[cp]})` : hex;
}

/** The text with every hidden character written as \u{…}, so that a report shows what is really there. */
export function revealHidden(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
}

/**
 * DECISIONS 1: the conventional name carries the archive date; another name is accepted, with a warning. A path
 * with an invisible or direction-changing character is an error: such a name is not "another name" but a
 * look-alike of one (ids must be unique, and must look unique).
 */
export const recordName: ArchiveRule = {
  id: 'file/record-name',
  summary:
    'Record files are named echo-YYYY-MM-DD-NNNNNN.json; another name is a warning and leaves the record undated (DECISIONS 1); a path with an invisible or direction-changing character is an error.',
  perFile: true,
  check(files) {
    const out = new Map<string, Finding[]>();
    for (const f of files) {
      if (!f.path.endsWith('.json')) continue;
      const hidden = [...new Set(f.path.match(HIDDEN_CHARACTERS) ?? [])];
      if (hidden.length > 0) {
        out.set(f.path, [
          {
            rule: this.id,
            severity: 'error',
            message: `the path "${revealHidden(f.path)}" contains ${hidden.length === 1 ? 'an invisible or direction-changing character' : 'invisible or direction-changing characters'}: ${hidden.map(codePoint).join(', ')}`,
            hint: 'Rename the file (and its folders) with visible characters only, e.g. echo-2026-11-22-000001.json: such characters make an id look like another one and can reorder the text shown around it.',
            pointer: '',
          },
        ]);
        continue;
      }
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
