/** Linked reports are other records of the archive: these cases run validateArchive over temporary archives. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateArchive } from '../../../src/core/archive/validate-archive.ts';
import { linkedReport } from '../../../src/core/rules/cross/linked-report.ts';
import { tempArchives, type FileContent } from '../../helpers/archive.ts';
import { echoWith, lineOf, recordText, REMOVE, reportEcho } from '../../helpers/records.ts';

const RULE = 'cross/linked-report';
const ECHO_PATH = 'echoes/echo-2026-05-01-000001.json';
const REPORT_PATH = 'verification-reports/v3/echo-2026-04-30-000001.json';

const makeArchive = tempArchives();

const report = (label: string | typeof REMOVE = 'multi_hash_verification') =>
  echoWith({ '/record_kind': 'verification_report_v2', '/verification_scope_label': label });

async function diagnosticsOf(files: Record<string, FileContent>, path = ECHO_PATH) {
  const root = makeArchive(files);
  const result = await validateArchive(root);
  const file = result.files.find((f) => f.path === path);
  if (!file) throw new Error(`${path} not reported`);
  return { file, root, result };
}

describe(RULE, () => {
  it('is the module of that id', () => expect(linkedReport.id).toBe(RULE));

  describe('passes', () => {
    it.each([`/${REPORT_PATH}`, REPORT_PATH])('a report at %s with the same label', async (link) => {
      const { file, result } = await diagnosticsOf({ [ECHO_PATH]: reportEcho(link), [REPORT_PATH]: report() });
      expect(file.diagnostics).toEqual([]);
      expect(result.summary).toMatchObject({ files: 2, valid: 2, invalid: 0, errors: 0, warnings: 0 });
    });

    it('a record without linked_verification_report is not checked', async () => {
      const { file } = await diagnosticsOf({ [ECHO_PATH]: echoWith({}) });
      expect(file.diagnostics).toEqual([]);
    });
  });

  it('missing file: the path names no record of the archive', async () => {
    const echo = reportEcho('/verification-reports/v3/missing.json');
    const { file } = await diagnosticsOf({ [ECHO_PATH]: echo, [REPORT_PATH]: report() });
    expect(file.valid).toBe(false);
    expect(file.diagnostics).toHaveLength(1);
    const d = file.diagnostics[0]!;
    expect(d).toMatchObject({ rule: RULE, severity: 'error', pointer: '/linked_verification_report/path' });
    expect(d.message).toBe('the linked report "/verification-reports/v3/missing.json" does not exist in the archive');
    expect(d.hint).toMatch(/relative to the archive root/);
    const text = recordText(echo);
    const line = lineOf(text, '"path": "/verification-reports/v3/missing.json"');
    expect(d.line).toBe(line);
    expect(d.column).toBe(text.split('\n')[line - 1]!.indexOf('"/verification') + 1);
  });

  it('missing file: a hidden file is not part of the archive', async () => {
    const { file } = await diagnosticsOf({ [ECHO_PATH]: reportEcho('/.drafts/r.json'), '.drafts/r.json': report() });
    expect(file.diagnostics.map((d) => [d.rule, d.message])).toEqual([
      [RULE, 'the linked report "/.drafts/r.json" does not exist in the archive'],
    ]);
  });

  it.each([
    ['a syntax error', '{ "record_kind": "verification_report_v2", '],
    ['an array at the top level', '[]'],
  ])('unreadable: the report holds %s', async (_what, content) => {
    const { file, result } = await diagnosticsOf({ [ECHO_PATH]: reportEcho(`/${REPORT_PATH}`), [REPORT_PATH]: content });
    const d = file.diagnostics.find((x) => x.rule === RULE)!;
    expect(d.pointer).toBe('/linked_verification_report/path');
    expect(d.message).toBe(`the linked report "/${REPORT_PATH}" cannot be read (it is not a JSON object), so the label cannot be matched`);
    expect(d.hint).toContain(REPORT_PATH);
    // the report itself carries its own diagnostics
    expect(result.files.find((f) => f.path === REPORT_PATH)!.valid).toBe(false);
  });

  it('unreadable: a report over 1 MiB is not read', async () => {
    const big = recordText(report()).replace(/\n$/, '') + ' '.repeat(1024 * 1024) + '\n';
    const { file } = await diagnosticsOf({ [ECHO_PATH]: reportEcho(REPORT_PATH), [REPORT_PATH]: big });
    expect(file.diagnostics.map((d) => d.rule)).toEqual([RULE]);
    expect(file.diagnostics[0]!.message).toMatch(/cannot be read/);
  });

  it('no label: the report has no verification_scope_label', async () => {
    const { file } = await diagnosticsOf({
      [ECHO_PATH]: reportEcho(`/${REPORT_PATH}`),
      [REPORT_PATH]: report(REMOVE),
    });
    expect(file.diagnostics).toHaveLength(1);
    expect(file.diagnostics[0]).toMatchObject({ rule: RULE, pointer: '/linked_verification_report/path' });
    expect(file.diagnostics[0]!.message).toBe(
      `the linked report "/${REPORT_PATH}" has no verification_scope_label, so the label cannot be matched`,
    );
    expect(file.diagnostics[0]!.hint).toContain(`Add the verification_scope_label to ${REPORT_PATH}`);
  });

  it("label mismatch: the echo claims another scope than its report's", async () => {
    const echo = reportEcho(REPORT_PATH, { '/verification_scope_label': 'V3-strong' });
    const { file } = await diagnosticsOf({ [ECHO_PATH]: echo, [REPORT_PATH]: report('single_hash_verification') });
    expect(file.diagnostics).toHaveLength(1);
    const d = file.diagnostics[0]!;
    expect(d).toMatchObject({ rule: RULE, pointer: '/verification_scope_label' });
    expect(d.message).toBe('verification_scope_label "V3-strong" differs from the linked report\'s "single_hash_verification"');
    expect(d.hint).toBe('An echo cannot claim a scope its report does not: set verification_scope_label to "single_hash_verification".');
    expect(d.line).toBe(lineOf(recordText(echo), '"verification_scope_label"'));
  });

  it('label mismatch: the echo has no label but its report does', async () => {
    const echo = reportEcho(REPORT_PATH, { '/verification_level': 'V1', '/verification_scope_label': REMOVE });
    const { file } = await diagnosticsOf({ [ECHO_PATH]: echo, [REPORT_PATH]: report('V3-minimal') });
    const d = file.diagnostics.find((x) => x.rule === RULE)!;
    expect(d.pointer).toBe('');
    expect(d.message).toBe(`the linked report "${REPORT_PATH}" has verification_scope_label "V3-minimal" but this record has none`);
    // report-fields says the same record lacks its label
    expect(file.diagnostics.map((x) => x.rule).sort()).toEqual(['cross/linked-report', 'cross/report-fields']);
  });

  it('self link: the report may not be the record itself', async () => {
    const { file } = await diagnosticsOf({ [ECHO_PATH]: reportEcho(`/${ECHO_PATH}`), [REPORT_PATH]: report() });
    expect(file.diagnostics.map((d) => [d.rule, d.pointer, d.message])).toEqual([
      [RULE, '/linked_verification_report/path', `the linked report "/${ECHO_PATH}" is this record itself`],
    ]);
    expect(file.diagnostics[0]!.hint).toMatch(/separate verification report record/);
  });

  describe('path escaping the root, or not naming a record', () => {
    it.each([
      '../outside/echo-2026-04-30-000001.json',
      '/../outside/echo-2026-04-30-000001.json',
      'verification-reports/../../outside/echo-2026-04-30-000001.json',
      './verification-reports/v3/echo-2026-04-30-000001.json',
      'verification-reports//v3/echo-2026-04-30-000001.json',
      'verification-reports\\v3\\echo-2026-04-30-000001.json',
      'https://example.org/verification-reports/v3/echo-2026-04-30-000001.json',
      'file:///etc/passwd.json',
      '/',
      '',
      'README.md',
      'verification-reports/v3/report.md',
    ])('%j', async (link) => {
      const files: Record<string, FileContent> = {
        [ECHO_PATH]: reportEcho(link),
        [REPORT_PATH]: report(),
        'README.md': '# records\n',
      };
      const root = makeArchive(files);
      // a real file outside the root, where the escaping link would lead
      const outside = join(root, '..', 'outside', 'echo-2026-04-30-000001.json');
      mkdirSync(dirname(outside), { recursive: true });
      writeFileSync(outside, recordText(report()));
      const result = await validateArchive(root);
      const file = result.files.find((f) => f.path === ECHO_PATH)!;
      expect(file.diagnostics.map((d) => [d.rule, d.pointer, d.message])).toEqual([
        [RULE, '/linked_verification_report/path', `the linked report "${link}" is not a path to a .json file inside the archive`],
      ]);
      expect(file.diagnostics[0]!.hint).toMatch(/from the archive root/);
    });
  });
});
