/** Publish records for tests: built from record objects, or read from an archive folder the way the site does. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { archiveDateOf, recordIdOf } from '../../src/core/archive/paths.ts';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import type { PublishRecord } from '../../src/core/publish/records.ts';
import { recordText, validEcho, echoWith } from '../helpers/records.ts';

export { echoWith, validEcho };

export interface TestRecord extends PublishRecord {
  bytes: Buffer;
}

/** A publish record for `record` stored at archive path `path`, with the bytes a contributor would write. */
export function publishRecord(path: string, record: Record<string, unknown> = validEcho(), text = recordText(record)): TestRecord {
  const id = recordIdOf(path);
  const bytes = Buffer.from(text, 'utf8');
  return { id, path, archiveDate: archiveDateOf(id) ?? null, sha256: sha256Hex(bytes), record, bytes };
}

/** The valid records of an archive folder, as the site reads them (bytes re-read from disk). */
export async function archiveRecords(root: string, { validOnly = true } = {}): Promise<TestRecord[]> {
  const report = await validateArchive(root);
  const out: TestRecord[] = [];
  for (const f of report.files) {
    if (!f.path.endsWith('.json') || !f.file.record || (validOnly && !f.valid)) continue;
    const bytes = readFileSync(join(root, f.path));
    out.push({ id: f.id, path: f.path, archiveDate: archiveDateOf(f.id) ?? null, sha256: sha256Hex(bytes), record: f.file.record, bytes });
  }
  return out;
}

/** A deterministic shuffle (the same permutation every run). */
export function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A strict well-formedness check for the XML the site writes (no DTD, no CDATA, no processing instructions but
 * the declaration): balanced tags, quoted attributes, known or numeric entities, only XML 1.0 characters.
 * Returns the problems found ([] when well-formed).
 */
export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)) problems.push('a character XML 1.0 does not allow');
  let rest = xml.replace(/^<\?xml [^?]*\?>\n?/, '');
  const stack: string[] = [];
  let roots = 0;
  const checkText = (text: string) => {
    if (text.includes('<') || text.includes('>')) problems.push(`unescaped < or > in ${JSON.stringify(text.slice(0, 40))}`);
    for (const m of text.matchAll(/&([^;\s]*);?/g)) {
      if (!/^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);$/.test(m[0])) problems.push(`bad entity ${m[0]}`);
    }
  };
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    if (lt === -1) {
      if (rest.trim() !== '') problems.push('text after the root element');
      break;
    }
    const text = rest.slice(0, lt);
    if (stack.length === 0 && text.trim() !== '') problems.push('text outside the root element');
    checkText(text);
    const gt = rest.indexOf('>', lt);
    if (gt === -1) {
      problems.push('unterminated tag');
      break;
    }
    const tag = rest.slice(lt + 1, gt);
    rest = rest.slice(gt + 1);
    const close = /^\/([A-Za-z_][\w.:-]*)\s*$/.exec(tag);
    if (close) {
      const open = stack.pop();
      if (open !== close[1]) problems.push(`</${close[1]}> closes <${open ?? 'nothing'}>`);
      continue;
    }
    const m = /^([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)$/.exec(tag);
    if (!m) {
      problems.push(`malformed tag <${tag.slice(0, 40)}>`);
      continue;
    }
    const names = [...m[2]!.matchAll(/([A-Za-z_][\w.:-]*)\s*=/g)].map((a) => a[1]);
    if (new Set(names).size !== names.length) problems.push(`duplicate attribute in <${m[1]}>`);
    for (const a of m[2]!.matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)) checkText(a[1] ?? a[2] ?? '');
    if (stack.length === 0) roots++;
    if (m[3] !== '/') stack.push(m[1]!);
  }
  if (stack.length > 0) problems.push(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}
