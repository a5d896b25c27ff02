/** The three report formats, on hand-made reports (the CLI tests run them end to end). */
import { describe, expect, it } from 'vitest';
import type { ArchiveReport, FileReport } from '../../src/core/archive/validate-archive.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import { formatGithub, MAX_ANNOTATIONS } from '../../src/core/report/format-github.ts';
import { formatJson, toJsonReport } from '../../src/core/report/format-json.ts';
import { displayPath, formatPretty } from '../../src/core/report/format-pretty.ts';

const ROOT = '/archive/records';

const diag = (over: Partial<Diagnostic> = {}): Diagnostic => ({
  rule: 'cross/c0-assessment',
  severity: 'error',
  message: 'something is wrong',
  hint: 'change it',
  pointer: '/assessment_state',
  line: 3,
  column: 7,
  ...over,
});

function report(files: Array<[string, Diagnostic[]]>): ArchiveReport {
  const fileReports = files.map(
    ([path, diagnostics]): FileReport => ({
      path,
      id: path.replace(/^.*\//, '').replace(/\.json$/, ''),
      valid: !diagnostics.some((d) => d.severity === 'error'),
      diagnostics,
      file: { path, id: '', size: 0 } as FileReport['file'],
    }),
  );
  const errors = files.flatMap(([, d]) => d).filter((d) => d.severity === 'error').length;
  const warnings = files.flatMap(([, d]) => d).length - errors;
  const valid = fileReports.filter((f) => f.valid).length;
  return {
    root: ROOT,
    files: fileReports,
    summary: { files: files.length, valid, invalid: files.length - valid, errors, warnings },
    archive: { root: ROOT, files: [], recordAt: () => undefined },
  };
}

describe('formatJson', () => {
  it('keeps exactly the documented fields, in order, and drops internal ones', () => {
    const d = { ...diag(), at: 'key' as const };
    const json = JSON.parse(formatJson(report([['a/echo-2026-05-01-000001.json', [d]]])));
    expect(json).toEqual({
      summary: { files: 1, valid: 0, invalid: 1, errors: 1, warnings: 0 },
      files: [
        {
          path: 'a/echo-2026-05-01-000001.json',
          id: 'echo-2026-05-01-000001',
          valid: false,
          diagnostics: [{ severity: 'error', rule: 'cross/c0-assessment', message: 'something is wrong', pointer: '/assessment_state', line: 3, column: 7, hint: 'change it' }],
        },
      ],
    });
    expect(Object.keys(json.files[0].diagnostics[0])).toEqual(['severity', 'rule', 'message', 'pointer', 'line', 'column', 'hint']);
    expect(formatJson(report([]))).toMatch(/\n$/);
  });

  it('toJsonReport is what formatJson prints', () => {
    const r = report([['x.json', [diag()]]]);
    expect(JSON.parse(formatJson(r))).toEqual(toJsonReport(r));
  });
});

describe('formatPretty', () => {
  it('groups by file, one line per problem and its fix, then the summary', () => {
    const out = formatPretty(
      report([
        ['ok.json', []],
        ['a/bad.json', [diag(), diag({ severity: 'warning', rule: 'file/record-name', message: 'odd name', hint: 'rename', line: 1, column: 1 })]],
      ]),
      { cwd: ROOT },
    );
    expect(out).toBe(
      [
        'a/bad.json',
        '  a/bad.json:3:7 error cross/c0-assessment something is wrong',
        '    fix: change it',
        '  a/bad.json:1:1 warning file/record-name odd name',
        '    fix: rename',
        '',
        '✖ 1 of 2 files invalid (1 error, 1 warning)',
        '',
      ].join('\n'),
    );
  });

  it('summaries for valid archives, singular and plural', () => {
    expect(formatPretty(report([['a.json', []]]))).toBe('✔ 1 file valid\n');
    const warned = formatPretty(report([['a.json', [diag({ severity: 'warning' })]], ['b.json', []]]), { cwd: ROOT });
    expect(warned.endsWith('✔ 2 files valid (0 errors, 1 warning)\n')).toBe(true);
  });

  it('shows paths relative to the working directory', () => {
    expect(displayPath(ROOT, 'a/b.json', '/archive')).toBe('records/a/b.json');
    expect(displayPath(ROOT, 'a/b.json', '/elsewhere')).toBe('../archive/records/a/b.json');
    const out = formatPretty(report([['a/b.json', [diag()]]]), { cwd: '/archive' });
    expect(out).toContain('  records/a/b.json:3:7 error');
  });

  it('colours only when asked', () => {
    const r = report([['a.json', [diag()]]]);
    expect(formatPretty(r, { cwd: ROOT })).not.toContain('\u001b[');
    expect(formatPretty(r, { cwd: ROOT, color: true })).toContain('\u001b[31merror\u001b[39m');
  });
});

describe('formatGithub', () => {
  it('one annotation per problem with file, line, col and the rule as title', () => {
    const out = formatGithub(report([['a/b.json', [diag()]]]), ROOT);
    expect(out).toBe('::error file=a/b.json,line=3,col=7,title=cross/c0-assessment::something is wrong%0Afix: change it\n');
  });

  it('escapes data (%, CR, LF) and properties (also : and ,)', () => {
    const out = formatGithub(report([['x,y:z%.json', [diag({ message: '100% wrong\r\nreally', hint: 'a:b,c' })]]]), ROOT);
    expect(out).toBe('::error file=x%2Cy%3Az%25.json,line=3,col=7,title=cross/c0-assessment::100%25 wrong%0D%0Areally%0Afix: a:b,c\n');
  });

  it(`shows at most ${MAX_ANNOTATIONS}, errors before warnings, then says how many were left out`, () => {
    expect(MAX_ANNOTATIONS).toBe(10);
    const warnings = Array.from({ length: 5 }, (_, i) => diag({ severity: 'warning', line: i + 1, rule: 'file/record-name' }));
    const errs = Array.from({ length: 8 }, (_, i) => diag({ line: i + 1 }));
    const out = formatGithub(report([['w.json', warnings], ['e.json', errs]]), ROOT).trimEnd().split('\n');
    expect(out).toHaveLength(11);
    expect(out.slice(0, 8).every((l) => l.startsWith('::error file=e.json,'))).toBe(true);
    expect(out.slice(8, 10).every((l) => l.startsWith('::warning file=w.json,'))).toBe(true);
    // only warnings were cut: the summary is a warning
    expect(out[10]).toBe('::warning title=echo-archive validate::3 more problems (0 errors) not shown as annotations: see the full report in the log.');
  });

  it('singular wording for one left-out error', () => {
    const errs = Array.from({ length: 11 }, () => diag());
    const out = formatGithub(report([['e.json', errs]]), ROOT).trimEnd().split('\n');
    expect(out[10]).toBe('::error title=echo-archive validate::1 more problem (1 error) not shown as annotations: see the full report in the log.');
  });

  it('prints nothing for a clean report', () => {
    expect(formatGithub(report([['a.json', []]]), ROOT)).toBe('');
  });
});
