/**
 * Markdown drafts ↔ records: the echo in the body, the front matter as data, a `---js` draft that must not run,
 * and the round trip (same JSON value for every record of records/ and of the shared sample; same bytes for every
 * record in the canonical layout).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDraft, recordToDraft } from '../../src/core/draft/draft.ts';
import { canonicalRecordText } from '../../src/core/record/canonical-layout.ts';
import { REPO_ROOT, validEcho } from '../helpers/records.ts';

const SAMPLE_ARCHIVE = resolve(REPO_ROOT, '../shared/corpus/real-sample/archive');
const samplePresent = existsSync(SAMPLE_ARCHIVE);
if (!samplePresent) console.warn(`[draft round trip] shared sample skipped: ${SAMPLE_ARCHIVE} is missing (it sits beside the repository, in ../shared).`);

function jsonFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsonFiles(join(dir, e.name), base) : e.name.endsWith('.json') ? [relative(base, join(dir, e.name))] : [],
  );
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

describe('draft → record', () => {
  const draft = [
    '---',
    'record_kind: echo_v3',
    'context_depth: C1_orientation',
    '---',
    '# What I read',
    '',
    '- the homepage',
    '- the agent start page',
    '',
    '```sh',
    'sha256sum inscription.txt',
    '```',
    '',
  ].join('\n');

  it('takes the echo from the Markdown body, without the final newline', () => {
    const r = readDraft(draft);
    expect(r.findings).toEqual([]);
    expect(r.record).toEqual({
      record_kind: 'echo_v3',
      context_depth: 'C1_orientation',
      echo: '# What I read\n\n- the homepage\n- the agent start page\n\n```sh\nsha256sum inscription.txt\n```',
    });
  });

  it('reads Windows line endings and a byte-order mark as a plain draft', () => {
    expect(readDraft('\uFEFF' + draft.replaceAll('\n', '\r\n')).record).toEqual(readDraft(draft).record);
  });

  it('places problems in the draft: fields at their line, the echo at the first line of the body', () => {
    const r = readDraft(draft);
    expect(r.locate({ rule: 'x', severity: 'error', message: '', hint: '', pointer: '/context_depth' })).toMatchObject({ line: 3, column: 16 });
    expect(r.locate({ rule: 'x', severity: 'error', message: '', hint: '', pointer: '/context_depth', at: 'key' })).toMatchObject({ line: 3, column: 1 });
    expect(r.locate({ rule: 'x', severity: 'error', message: '', hint: '', pointer: '/echo' })).toMatchObject({ line: 5, column: 1 });
    expect(r.locate({ rule: 'x', severity: 'error', message: '', hint: '', pointer: '/missing' })).toMatchObject({ line: 2, column: 1 });
  });

  it('refuses an echo given twice', () => {
    const r = readDraft('---\necho: short\n---\nand a body\n');
    expect(r.record).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ rule: 'draft/echo-twice', line: 2, column: 1 })]);
  });

  it('accepts JSON front matter (---json), read strictly', () => {
    expect(readDraft('---json\n{"record_kind": "echo_v3"}\n---\nbody\n').record).toEqual({ record_kind: 'echo_v3', echo: 'body' });
    const dup = readDraft('---json\n{"a": 1,\n "a": 2}\n---\n');
    expect(dup.record).toBeUndefined();
    expect(dup.findings[0]).toMatchObject({ rule: 'json/duplicate-key', line: 3 });
  });

  it.each([
    ['no front matter', 'just text\n', 'draft/front-matter'],
    ['an unclosed front matter', '---\na: 1\n', 'draft/front-matter'],
    ['a list instead of fields', '---\n- a\n- b\n---\n', 'draft/front-matter'],
  ])('refuses %s', (_, text, rule) => {
    const r = readDraft(text);
    expect(r.record).toBeUndefined();
    expect(r.findings.map((f) => f.rule)).toEqual([rule]);
  });
});

describe('a draft that asks for another front-matter engine', () => {
  it.each(['js', 'javascript', 'JS', 'coffee', 'toml', 'constructor', '__proto__'])('---%s is refused and nothing runs', (lang) => {
    const marker = `__echo_archive_draft_ran_${lang}`;
    const text = `---${lang}\n{ record_kind: (globalThis["${marker}"] = "ran") }\n---\nbody\n`;
    const r = readDraft(text);
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
    expect(r.record).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ rule: 'draft/front-matter-language', line: 1 })]);
    expect(r.findings[0]!.message).toMatch(/front matter is data/);
  });

  it('runs the same block when gray-matter is left with its defaults (the hazard is real)', async () => {
    const matter = (await import('gray-matter')).default;
    const marker = '__echo_archive_gray_matter_default';
    matter(`---js\n{ a: (globalThis["${marker}"] = "ran") }\n---\n`);
    expect((globalThis as Record<string, unknown>)[marker]).toBe('ran');
    delete (globalThis as Record<string, unknown>)[marker];
  });
});

describe('record → draft → record', () => {
  it('puts the echo in the body and everything else in the front matter, in the schema order', () => {
    const record = validEcho();
    const md = recordToDraft(record);
    expect(md.startsWith('---\n')).toBe(true);
    const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(md)!;
    expect(body).toBe(`${record.echo as string}\n`);
    expect(front).not.toMatch(/^echo:/m);
    expect(front!.indexOf('schema:')).toBeLessThan(front!.indexOf('record_kind:'));
  });

  it.each([
    ['an empty echo', ''],
    ['an echo with a carriage return', 'line\r\nline'],
  ])('keeps %s in the front matter', (_, echo) => {
    const record = { ...validEcho(), echo };
    const md = recordToDraft(record);
    expect(md.endsWith('---\n')).toBe(true);
    expect(readDraft(md).record).toEqual(record);
  });

  it('keeps a record without an echo without one', () => {
    const { echo: _, ...record } = validEcho();
    expect(readDraft(recordToDraft(record)).record).toEqual(record);
  });

  const sources: Array<[string, string]> = [['records', resolve(REPO_ROOT, 'records')]];
  if (samplePresent) sources.push(['shared sample', SAMPLE_ARCHIVE]);
  const files = sources.flatMap(([name, dir]) => jsonFiles(dir).map((p) => [`${name}: ${p}`, join(dir, p)] as [string, string]));

  it('covers every record of records/ and of the shared sample', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  it.each(files)('%s: the same JSON value, and the same bytes in the canonical layout', (_, file) => {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const back = readDraft(recordToDraft(record));
    expect(back.findings).toEqual([]);
    expect(back.record).toStrictEqual(record);
    // A record in the canonical layout comes back byte for byte (no file of the archive is in that layout yet, so
    // each record's canonical form is the one checked).
    const canonical = canonicalRecordText(record);
    const recordFileOf = (md: string) => canonicalRecordText(readDraft(md).record);
    expect(recordFileOf(recordToDraft(JSON.parse(canonical)))).toBe(canonical);
  });

  it('round-trips any JSON object (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('yes', 'no', 'on', '~', 'null', '2026-01-01', '3.0', '0x10', '1e3', '---', '--- x', '\n---\n', '...', '# x', '- a', 'a: b', ' lead', 'trail ', '\t', '\n', '\r\n', '|', '>', '&a', '*a', '!!str x', '\u2028', '\u0085', '\uFEFF', '.nan', '<<'),
    );
    const key = fc.oneof(text, fc.constantFrom('__proto__', 'echo', '1', 'true'));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    }));
    const record = fc.record({ echo: text, a: value, b: fc.dictionary(key, value, { maxKeys: 5 }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(record, (generated) => {
        const r = JSON.parse(JSON.stringify(generated)) as Record<string, unknown>;
        const back = readDraft(recordToDraft(r));
        expect(back.findings).toEqual([]);
        expect(back.record).toStrictEqual(r);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('hints for YAML readings that surprise', () => {
  const finding = (pointer: string, rule = 'schema/type') => ({ rule, severity: 'error' as const, message: 'm', hint: 'Change the value to true or false.', pointer });

  it('explains that yes/no/on/off are text in a draft', () => {
    const r = readDraft('---\nagent_identity:\n  self_reported: yes\n---\n');
    expect(r.locate(finding('/agent_identity/self_reported')).hint).toBe(
      'Change the value to true or false. (In a draft, yes is the text "yes": YAML 1.2 has no yes/no booleans. Write true or false for a boolean.)',
    );
  });

  it('says how to keep an unquoted number as text', () => {
    const r = readDraft('---\necho_version: 3.0\n---\n');
    expect(r.locate({ ...finding('/echo_version', 'schema/const'), hint: 'This value is fixed: write "3.0".' }).hint).toBe(
      'This value is fixed: write "3.0". (In a draft, 3.0 unquoted is read as a number. To keep it as text, quote it: "3.0".)',
    );
  });

  it('adds nothing to quoted values, to other rules, or where YAML read what was written', () => {
    const r = readDraft('---\na: "yes"\nb: yes\nc: text\n---\n');
    expect(r.locate(finding('/a')).hint).toBe('Change the value to true or false.');
    expect(r.locate(finding('/b', 'cross/x')).hint).toBe('Change the value to true or false.');
    expect(r.locate(finding('/c')).hint).toBe('Change the value to true or false.');
  });
});
