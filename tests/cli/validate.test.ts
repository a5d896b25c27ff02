/** The validate CLI, run as a child process against temporary archives. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempArchives } from '../helpers/archive.ts';
import { runCli } from '../helpers/cli.ts';
import { echoWith, lineOf, recordText, REMOVE, validEcho } from '../helpers/records.ts';

const makeArchive = tempArchives();

const C0_BAD = echoWith({ '/context_depth': 'C0_homepage_only' }); // assessment_state stays qualified_assessment
const REPORT = echoWith({ '/record_kind': 'verification_report_v2', '/verification_scope_label': 'multi_hash_verification' });
const LINKING_ECHO = (label: string) =>
  echoWith({
    '/record_kind': 'echo_v3_with_verification_report',
    '/verification_scope_label': label,
    '/linked_verification_report': { schema_version: 'v3', path: '/reports/echo-2026-04-30-000001.json' },
    '/generated_by': {
      builder_version: '1',
      claim_gate_output: 'x',
      evidence_input: 'y',
      generated_at_utc: '2026-05-01T00:00:00Z',
      validation_command: 'z',
      validation_result: 'PASS',
    },
  });

/** A small archive: one valid record, one warning-only record, one invalid record, a README, nested folders. */
function mixedArchive() {
  return makeArchive({
    'README.md': '# records\n',
    '2026/05/echo-2026-05-01-000001.json': validEcho(),
    '2026/05/odd-name.json': validEcho(),
    '2026/06/echo-2026-06-01-000002.json': C0_BAD,
    'reports/echo-2026-04-30-000001.json': REPORT,
  });
}

describe.concurrent('validate CLI', () => {
  describe('exit status', () => {
    it('0 for a valid archive, warnings allowed', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': validEcho(), 'odd-name.json': validEcho() });
      const r = await runCli(['--root', root]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/✔ 2 files valid \(0 errors, 1 warning\)\n$/);
    });

    it('1 when some record is invalid', async () => {
      const r = await runCli(['--root', mixedArchive()]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/✖ 1 of 4 files invalid \(1 error, 1 warning\)\n$/);
    });

    it('0 for --help, which prints the usage', async () => {
      const r = await runCli(['--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Validate the Echo record archive\./);
      expect(r.stdout).toMatch(/--format F/);
    });

    it.each([
      [['--bogus'], /validate: .*--bogus/],
      [['--format', 'xml'], /validate: unknown --format "xml": use pretty, json, github or markdown/],
      [['--format'], /validate: .*--format/],
    ])('2 for a usage error: %j', async (args, message) => {
      const r = await runCli([...args, '--root', makeArchive({ 'echo-2026-05-01-000001.json': validEcho() })]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/Run with --help for usage\./);
    });

    it('2 when the root is missing', async () => {
      const root = join(makeArchive({}), 'no-such-folder');
      const r = await runCli(['--root', root]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^validate: .*no-such-folder/);
      expect(r.stderr).not.toMatch(/internal error/);
    });

    it('2 when the root is a file', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': validEcho() });
      const r = await runCli(['--root', join(root, 'echo-2026-05-01-000001.json')]);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(/internal error/);
    });

    it('2 for a FILE outside the root', async () => {
      const root = makeArchive({ 'a/echo-2026-05-01-000001.json': validEcho(), 'b/echo-2026-05-01-000002.json': validEcho() });
      const r = await runCli(['--root', join(root, 'a'), join(root, 'b/echo-2026-05-01-000002.json')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not inside the archive root/);
    });

    it('2 for the root itself as FILE, a missing FILE, and a hidden FILE', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': validEcho(), '.hidden.json': validEcho() });
      expect((await runCli(['--root', root, root])).code).toBe(2);
      const missing = await runCli(['--root', root, join(root, 'echo-2026-05-01-000009.json')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/does not exist/);
      const hidden = await runCli(['--root', root, join(root, '.hidden.json')]);
      expect(hidden.code).toBe(2);
      expect(hidden.stderr).toMatch(/not part of the archive/);
    });
  });

  describe('--format json', () => {
    it('has exactly the documented shape, every file listed, paths relative with forward slashes', async () => {
      const root = mixedArchive();
      const r = await runCli(['--root', root, '--format', 'json']);
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout);
      expect(Object.keys(report)).toEqual(['summary', 'files']);
      expect(report.summary).toEqual({ files: 4, valid: 3, invalid: 1, errors: 1, warnings: 1 });
      // every record file of the root (README.md is allowed and is not a record), in path order
      expect(report.files.map((f: { path: string }) => f.path)).toEqual([
        '2026/05/echo-2026-05-01-000001.json',
        '2026/05/odd-name.json',
        '2026/06/echo-2026-06-01-000002.json',
        'reports/echo-2026-04-30-000001.json',
      ]);
      for (const f of report.files) {
        expect(Object.keys(f)).toEqual(['path', 'id', 'valid', 'diagnostics']);
        for (const d of f.diagnostics) {
          expect(Object.keys(d)).toEqual(['severity', 'rule', 'message', 'pointer', 'line', 'column', 'hint']);
        }
      }
      const [valid, odd, bad, rep] = report.files;
      expect(valid).toEqual({ path: '2026/05/echo-2026-05-01-000001.json', id: 'echo-2026-05-01-000001', valid: true, diagnostics: [] });
      expect(rep.diagnostics).toEqual([]);
      expect(odd).toMatchObject({ id: 'odd-name', valid: true });
      expect(odd.diagnostics).toEqual([
        {
          severity: 'warning',
          rule: 'file/record-name',
          message: '"odd-name" is not a conventional record name (echo-YYYY-MM-DD-NNNNNN), so the record has no archive date',
          pointer: '',
          line: 1,
          column: 1,
          hint: expect.stringMatching(/echo-<archive date>/),
        },
      ]);
      const text = recordText(C0_BAD);
      const line = lineOf(text, '"assessment_state"');
      expect(bad).toMatchObject({ id: 'echo-2026-06-01-000002', valid: false });
      expect(bad.diagnostics).toEqual([
        {
          severity: 'error',
          rule: 'cross/c0-assessment',
          message: expect.stringContaining('C0_homepage_only'),
          pointer: '/assessment_state',
          line,
          column: text.split('\n')[line - 1]!.indexOf('"qualified_assessment"') + 1,
          hint: expect.stringContaining('insufficient_context'),
        },
      ]);
    });

    it('an empty archive is valid and lists nothing', async () => {
      const r = await runCli(['--root', makeArchive({ 'README.md': '#\n' }), '--format', 'json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ summary: { files: 0, valid: 0, invalid: 0, errors: 0, warnings: 0 }, files: [] });
    });

    it('FILE arguments limit the report to those files', async () => {
      const root = mixedArchive();
      const r = await runCli(['--root', root, '--format', 'json', join(root, '2026/06/echo-2026-06-01-000002.json'), join(root, '2026/05/odd-name.json')]);
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout);
      expect(report.files.map((f: { path: string }) => f.path)).toEqual(['2026/05/odd-name.json', '2026/06/echo-2026-06-01-000002.json']);
      expect(report.summary).toEqual({ files: 2, valid: 1, invalid: 1, errors: 1, warnings: 1 });
    });

    it('FILE arguments relative to the working directory', async () => {
      const root = mixedArchive();
      const r = await runCli(['--root', '.', '--format', 'json', '2026/05/echo-2026-05-01-000001.json'], { cwd: root });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toEqual(['2026/05/echo-2026-05-01-000001.json']);
    });

    it('linked reports outside the selection are still resolved', async () => {
      const root = makeArchive({
        'echoes/echo-2026-05-01-000001.json': LINKING_ECHO('multi_hash_verification'),
        'echoes/echo-2026-05-01-000002.json': LINKING_ECHO('V3-strong'),
        'reports/echo-2026-04-30-000001.json': REPORT,
      });
      const good = await runCli(['--root', root, '--format', 'json', join(root, 'echoes/echo-2026-05-01-000001.json')]);
      expect(good.code).toBe(0);
      expect(JSON.parse(good.stdout).files).toEqual([
        { path: 'echoes/echo-2026-05-01-000001.json', id: 'echo-2026-05-01-000001', valid: true, diagnostics: [] },
      ]);
      const bad = await runCli(['--root', root, '--format', 'json', join(root, 'echoes/echo-2026-05-01-000002.json')]);
      expect(bad.code).toBe(1);
      const [file] = JSON.parse(bad.stdout).files;
      expect(file.diagnostics.map((d: { rule: string; message: string }) => [d.rule, d.message])).toEqual([
        ['cross/linked-report', 'verification_scope_label "V3-strong" differs from the linked report\'s "multi_hash_verification"'],
      ]);
    });

    it('ids are compared with files outside the selection', async () => {
      const root = makeArchive({ 'a/echo-2026-05-01-000001.json': validEcho(), 'b/echo-2026-05-01-000001.json': validEcho() });
      const r = await runCli(['--root', root, '--format', 'json', join(root, 'a/echo-2026-05-01-000001.json')]);
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout);
      expect(report.files).toHaveLength(1);
      expect(report.files[0].diagnostics[0]).toMatchObject({ rule: 'file/duplicate-id', message: expect.stringContaining('b/echo-2026-05-01-000001.json') });
    });
  });

  describe('RECORDS_DIR', () => {
    it('is the root when --root is absent', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': C0_BAD });
      const r = await runCli(['--format', 'json'], { env: { RECORDS_DIR: root } });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toEqual(['echo-2026-05-01-000001.json']);
    });

    it('--root wins over RECORDS_DIR', async () => {
      const bad = makeArchive({ 'echo-2026-05-01-000001.json': C0_BAD });
      const good = makeArchive({ 'echo-2026-05-01-000002.json': validEcho() });
      const r = await runCli(['--root', good, '--format', 'json'], { env: { RECORDS_DIR: bad } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).files[0].path).toBe('echo-2026-05-01-000002.json');
    });

    it('records/ in the working directory when neither is given', async () => {
      const dir = makeArchive({ 'records/echo-2026-05-01-000001.json': validEcho(), 'other/echo-2026-05-01-000002.json': C0_BAD });
      const r = await runCli(['--format', 'json'], { cwd: dir, env: { RECORDS_DIR: '' } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toEqual(['echo-2026-05-01-000001.json']);
    });
  });

  describe('--format pretty (default)', () => {
    it('prints path:line:col, severity, rule and message, with the hint beneath, paths relative to the working directory', async () => {
      const root = mixedArchive();
      const r = await runCli([], { cwd: root, env: { RECORDS_DIR: '.' } });
      expect(r.code).toBe(1);
      const text = recordText(C0_BAD);
      const line = lineOf(text, '"assessment_state"');
      const column = text.split('\n')[line - 1]!.indexOf('"qualified_assessment"') + 1;
      const lines = r.stdout.split('\n');
      const at = lines.indexOf('2026/06/echo-2026-06-01-000002.json');
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toMatch(
        new RegExp(`^  2026/06/echo-2026-06-01-000002\\.json:${line}:${column} error cross/c0-assessment a record with context_depth C0_homepage_only must have assessment_state insufficient_context`),
      );
      expect(lines[at + 2]).toMatch(/^    fix: Having read only the homepage is not enough/);
      expect(r.stdout).toContain('  2026/05/odd-name.json:1:1 warning file/record-name "odd-name" is not a conventional record name');
      // files without problems are not listed, and there is no colour when stdout is not a terminal
      expect(r.stdout).not.toContain('echo-2026-05-01-000001.json');
      expect(r.stdout).not.toContain('\u001b[');
    });

    it('--color forces ANSI colour, --no-color removes it', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': C0_BAD });
      const colored = await runCli(['--root', root, '--color']);
      expect(colored.stdout).toContain('\u001b[31merror\u001b[39m');
      const plain = await runCli(['--root', root, '--color', '--no-color']);
      expect(plain.stdout).not.toContain('\u001b[');
    });
  });

  describe('--format github', () => {
    it('at most 10 annotations, then one summary annotation, then the pretty report', async () => {
      const files: Record<string, unknown> = {};
      for (let i = 1; i <= 12; i++) files[`echo-2026-05-01-${String(i).padStart(6, '0')}.json`] = C0_BAD;
      files['odd,name.json'] = validEcho(); // one warning, sorted last: errors come first
      const root = makeArchive(files as Record<string, Record<string, unknown>>);
      const r = await runCli(['--format', 'github', '--root', '.'], { cwd: root });
      expect(r.code).toBe(1);
      const out = r.stdout.split('\n');
      const annotations = out.filter((l) => l.startsWith('::'));
      expect(annotations).toHaveLength(11);
      expect(out.slice(0, 11)).toEqual(annotations); // annotations first
      const text = recordText(C0_BAD);
      const line = lineOf(text, '"assessment_state"');
      const col = text.split('\n')[line - 1]!.indexOf('"qualified_assessment"') + 1;
      for (const [i, a] of annotations.slice(0, 10).entries()) {
        const id = `echo-2026-05-01-${String(i + 1).padStart(6, '0')}`;
        expect(a).toMatch(
          new RegExp(`^::error file=${id}\\.json,line=${line},col=${col},title=cross/c0-assessment::a record with context_depth C0_homepage_only .*%0Afix: Having read only`),
        );
      }
      expect(annotations[10]).toBe(
        '::error title=echo-archive validate::3 more problems (2 errors) not shown as annotations: see the full report in the log.',
      );
      // the full pretty report follows, with every problem, the warning included
      expect(r.stdout).toContain('  echo-2026-05-01-000012.json:');
      expect(r.stdout).toContain('  odd,name.json:1:1 warning file/record-name');
      expect(r.stdout).toMatch(/✖ 12 of 13 files invalid \(12 errors, 1 warning\)\n$/);
    });

    it('no summary annotation when everything fits; warnings are ::warning; properties are escaped', async () => {
      const root = makeArchive({ 'odd,name.json': validEcho(), 'echo-2026-05-01-000001.json': C0_BAD });
      const r = await runCli(['--format', 'github', '--root', '.'], { cwd: root });
      const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
      expect(annotations).toHaveLength(2);
      expect(annotations[0]).toMatch(/^::error file=echo-2026-05-01-000001\.json,line=\d+,col=\d+,title=cross\/c0-assessment::/);
      expect(annotations[1]).toMatch(/^::warning file=odd%2Cname\.json,line=1,col=1,title=file\/record-name::"odd,name" is not/);
    });

    it('prints no annotation for a clean archive, only the summary', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': validEcho() });
      const r = await runCli(['--format', 'github', '--root', root]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('✔ 1 file valid\n');
    });
  });

  describe('strict reading through the CLI', () => {
    it('reports JSON problems with their line and column', async () => {
      const root = makeArchive({
        'echo-2026-05-01-000001.json': '{\n  "a": 1,\n  "a": 2\n}\n',
        'echo-2026-05-01-000002.json': '{\n  "a": NaN\n}\n',
      });
      const r = await runCli(['--root', root, '--format', 'json']);
      expect(r.code).toBe(1);
      const [dup, nan] = JSON.parse(r.stdout).files;
      expect(dup.diagnostics.map((d: any) => [d.rule, d.line, d.column])).toEqual([
        // in file order
        ['schema/required', 1, 1],
        ['schema/additional-properties', 2, 3],
        ['json/duplicate-key', 3, 3],
      ]);
      expect(nan.diagnostics.map((d: any) => [d.rule, d.line, d.column, d.message])).toEqual([['json/syntax', 2, 8, 'NaN is not a JSON number']]);
    });

    it('a missing required field is reported once per object, not once per field', async () => {
      const root = makeArchive({ 'echo-2026-05-01-000001.json': echoWith({ '/echo': REMOVE, '/schema': REMOVE }) });
      const r = await runCli(['--root', root, '--format', 'json']);
      const [f] = JSON.parse(r.stdout).files;
      expect(f.diagnostics).toHaveLength(1);
      expect(f.diagnostics[0].message).toBe('missing required fields in the top level: schema, echo');
    });
  });
});
