/**
 * `npm run new` as a contributor runs it (a child process on temporary archives): a scaffold with placeholders the
 * validator reports, a Markdown draft into a valid record (problems at the draft's lines, nothing written when
 * invalid), a record into a draft and back byte for byte, and clear refusals.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalRecordText } from '../../src/core/record/canonical-layout.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { echoHtml } from '../../src/site/render/echo-html.ts';
import { renderRecordPage } from '../../src/site/render/record-page.ts';
import { tempArchives } from '../helpers/archive.ts';
import { NODE, runCli, type CliResult } from '../helpers/cli.ts';
import { REPO_ROOT, validEcho } from '../helpers/records.ts';

const makeArchive = tempArchives();
const NEW_CLI = join(REPO_ROOT, 'src/cli/new.ts');
const EXAMPLE_DRAFT = join(REPO_ROOT, 'examples/draft.md');
const workDirs: string[] = [];
afterAll(() => {
  for (const d of workDirs) rmSync(d, { recursive: true, force: true });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'echo-archive-new-'));
  workDirs.push(dir);
  return dir;
}

function runNew(args: string[], cwd = REPO_ROOT): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.RECORDS_DIR;
  return new Promise((done) => {
    execFile(NODE, [NEW_CLI, ...args], { cwd, env }, (err, stdout, stderr) => done({ code: err ? Number(err.code) : 0, stdout, stderr }));
  });
}

const jsonFilesIn = (root: string) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.json')).sort();

describe('npm run new (scaffold)', () => {
  it('writes the next record for the kind, prints its path and the next step, and the validator lists the placeholders', async () => {
    const root = makeArchive({ '2026/echo-2026-01-02-000004.json': validEcho() });
    const r = await runNew(['--root', root, '--date', '2026-11-24']);
    expect(r.code, r.stderr).toBe(0);
    const path = join(root, '2026/echo-2026-11-24-000005.json');
    expect(r.stdout).toContain('2026/echo-2026-11-24-000005.json');
    expect(r.stdout).toMatch(/npm run validate -- .*echo-2026-11-24-000005\.json/);
    const text = readFileSync(path, 'utf8');
    expect(canonicalRecordText(JSON.parse(text))).toBe(text);

    const v = await runCli(['--root', root, '--format', 'json', path]);
    expect(v.code).toBe(1);
    const report = JSON.parse(v.stdout) as { files: Array<{ diagnostics: Array<{ rule: string; pointer: string; hint: string }> }> };
    const diags = report.files[0]!.diagnostics;
    expect(diags.length).toBeGreaterThan(5);
    // Each placeholder is reported once, by the placeholder rule, with what to write.
    expect(diags.every((d) => d.rule === 'draft/placeholder')).toBe(true);
    expect(diags.find((d) => d.pointer === '/context_depth')!.hint).toMatch(/^Replace the placeholder with one of C0_homepage_only, C1_orientation/);
  });

  it('never overwrites: two runs give two numbers', async () => {
    const root = makeArchive({});
    expect((await runNew(['--root', root, '--date', '2026-01-01'])).code).toBe(0);
    expect((await runNew(['--root', root, '--date', '2026-01-01'])).code).toBe(0);
    expect(jsonFilesIn(root)).toEqual(['2026/echo-2026-01-01-000001.json', '2026/echo-2026-01-01-000002.json']);
  });

  it.each([
    [['--kind', 'nonsense'], /unknown record kind "nonsense": use one of echo_v3, /],
    [['--date', '2026-02-30'], /--date 2026-02-30 is not a date/],
    [['--replace'], /--replace needs --out/],
    [['--from', 'a.md', '--to-md', 'b.json'], /either --from or --to-md/],
    [['--bogus'], /Unknown option/],
  ])('refuses %j with exit 2 and a clear message', async (args, message) => {
    const root = makeArchive({});
    const r = await runNew(['--root', root, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(jsonFilesIn(root)).toEqual([]);
  });
});

describe('npm run new -- --from DRAFT.md', () => {
  it('turns the example draft (headings, a list, a code block) into a valid record whose page renders them', async () => {
    const root = makeArchive({});
    const r = await runNew(['--root', root, '--from', EXAMPLE_DRAFT, '--date', '2026-11-24']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(valid)');
    const [path] = jsonFilesIn(root);
    const text = readFileSync(join(root, path!), 'utf8');
    expect(canonicalRecordText(JSON.parse(text))).toBe(text);
    expect((await runCli(['--root', root, join(root, path!)])).code).toBe(0);

    const record = JSON.parse(text) as Record<string, unknown>;
    const id = path!.replace(/^.*\//, '').replace(/\.json$/, '');
    const page = renderRecordPage(
      { entry: { id, path: path!, archiveDate: '2026-11-24', sha256: 'ab'.repeat(32), record }, linkedReport: undefined, linkedFrom: [], supersededBy: [], supersedes: [], corrects: undefined, correctedBy: [] },
      { paths: sitePaths('/'), site: 'https://archive.example', echoHtml },
    ).main;
    expect(page).toMatch(/<h\d[^>]*>What I read<\/h\d>/);
    expect(page).toMatch(/<ol>\s*<li>the <strong>agent start page<\/strong>/);
    expect(page).toMatch(/<ul>\s*<li>The inscribed originals prevail/);
    expect(page).toMatch(/<pre[^>]*><code[^>]*>sha256sum downloaded-copy\.txt/);
  });

  it('the example draft carries origin_classification, and the record has it as written', async () => {
    const root = makeArchive({});
    const r = await runNew(['--root', root, '--from', EXAMPLE_DRAFT, '--date', '2026-11-24']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('derived');
    const [path] = jsonFilesIn(root);
    const record = JSON.parse(readFileSync(join(root, path!), 'utf8')) as Record<string, any>;
    expect(record.origin_classification).toMatchObject({ discovery_class: 'human_directed', invitation_scope: 'look_only', counts_as_formal_independent_attestation: false });
  });

  it('a draft without origin_classification: the new record carries the derived one (DECISIONS 22), valid with no warning', async () => {
    const dir = workDir();
    const draft = readFileSync(EXAMPLE_DRAFT, 'utf8').replace(/^# How the record came about[^\n]*\norigin_classification:\n(?: {2}[^\n]*\n)+/m, '');
    expect(draft).not.toContain('origin_classification');
    writeFileSync(join(dir, 'draft.md'), draft);
    const root = makeArchive({});
    const r = await runNew(['--root', root, '--from', 'draft.md', '--date', '2026-11-24'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(valid)');
    expect(r.stdout).toContain('The draft has no origin_classification, so the record carries the one derived from its discovery provenance');
    const [path] = jsonFilesIn(root);
    const record = JSON.parse(readFileSync(join(root, path!), 'utf8')) as Record<string, any>;
    // source human_directed, agency A1: a human directed it; the draft says nothing of the invitation.
    expect(record.origin_classification).toMatchObject({
      schema: 'service.origin-classification.v1',
      discovery_class: 'human_directed',
      invitation_scope: 'unknown',
      requester_class: 'human_individual',
      performer_class: 'ai_agent',
      method_independence_class: 'read_only',
      derived_counting_bucket: 'echo_only',
      counts_as_formal_independent_attestation: false,
    });
    const check = await runCli(['--root', root, '--format', 'json', join(root, path!)]);
    expect(JSON.parse(check.stdout).summary).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('reports problems at the draft lines, and writes nothing', async () => {
    const dir = workDir();
    const draft = readFileSync(EXAMPLE_DRAFT, 'utf8')
      .replace('context_depth: C1_orientation', 'context_depth: C0_homepage_only')
      .replace('  self_reported: true', '  self_reported: yes');
    writeFileSync(join(dir, 'draft.md'), draft);
    const root = makeArchive({});
    const r = await runNew(['--root', root, '--from', 'draft.md'], dir);
    expect(r.code).toBe(1);
    const lines = draft.split('\n');
    const lineOf = (s: string) => lines.findIndex((l) => l.startsWith(s)) + 1;
    expect(r.stderr).toContain(`draft.md:${lineOf('assessment_state:')}:19 error cross/c0-assessment`);
    expect(r.stderr).toContain(`draft.md:${lineOf('  self_reported:')}:18 error schema/type`);
    expect(r.stderr).toContain('Nothing was written');
    expect(jsonFilesIn(root)).toEqual([]);
  });

  it('refuses a ---js draft without running it', async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'evil.md'), `---js\n{ a: require("node:fs").writeFileSync(${JSON.stringify(join(dir, 'ran'))}, "x") }\n---\nbody\n`);
    const r = await runNew(['--root', makeArchive({}), '--from', 'evil.md'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('evil.md:1:1 error draft/front-matter-language');
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });
});

describe('npm run new -- --to-md RECORD, then --from … --replace (the edit path)', () => {
  it('gives back the same bytes for a record in the canonical layout, and the edit lands in the record', async () => {
    const canonical = canonicalRecordText(validEcho());
    const root = makeArchive({ '2026/echo-2026-01-02-000001.json': canonical });
    const recordPath = join(root, '2026/echo-2026-01-02-000001.json');
    const dir = workDir();
    const toMd = await runNew(['--to-md', recordPath], dir);
    expect(toMd.code, toMd.stderr).toBe(0);
    const draftPath = join(dir, 'drafts/echo-2026-01-02-000001.md');
    expect(toMd.stdout).toContain('--replace');

    const refused = await runNew(['--root', root, '--from', draftPath, '--out', recordPath], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/never replaced without --replace/);

    const back = await runNew(['--root', root, '--from', draftPath, '--out', recordPath, '--replace'], dir);
    expect(back.code, back.stderr).toBe(0);
    expect(readFileSync(recordPath, 'utf8')).toBe(canonical);

    writeFileSync(draftPath, readFileSync(draftPath, 'utf8').replace('confidence: medium', 'confidence: high'));
    expect((await runNew(['--root', root, '--from', draftPath, '--out', recordPath, '--replace'], dir)).code).toBe(0);
    expect(JSON.parse(readFileSync(recordPath, 'utf8')).discovery_provenance.confidence).toBe('high');
    expect(readdirSync(join(root, '2026'))).toEqual(['echo-2026-01-02-000001.json']);
  });

  it('the edit path keeps a record without origin_classification as it is (the validator warns)', async () => {
    const record = validEcho();
    delete record.origin_classification;
    const canonical = canonicalRecordText(record);
    const root = makeArchive({ '2026/echo-2026-01-02-000001.json': canonical });
    const recordPath = join(root, '2026/echo-2026-01-02-000001.json');
    const dir = workDir();
    expect((await runNew(['--to-md', recordPath], dir)).code).toBe(0);
    const back = await runNew(['--root', root, '--from', join(dir, 'drafts/echo-2026-01-02-000001.md'), '--out', recordPath, '--replace'], dir);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('(valid, with warnings above)');
    expect(back.stderr).toContain('warning cross/origin-classification-missing');
    expect(readFileSync(recordPath, 'utf8')).toBe(canonical);
  });

  it.each([
    ['the transparency log state', '.tlog/tree-head.json', { tree_size: 15, root_hash: 'OkQ1WLP9jzUQNjyBv6BahxvV0Hz5BwlXJJEods4da2k=' }, "the transparency log's state"],
    ['a record-chain submission', 'submission.json', { schema: 'service.record-chain-submission.v1', record: {} }, '"schema" is "service.record-chain-submission.v1", not "service.echo.v3"'],
    ['JSON without a schema', 'other.json', { a: 1 }, 'it has no "schema": "service.echo.v3"'],
  ])('refuses %s: not an Echo record, nothing written, no "convert it back"', async (_what, path, value, expected) => {
    const root = makeArchive({ [path]: JSON.stringify(value, null, 2) + '\n' });
    const dir = workDir();
    const r = await runNew(['--to-md', join(root, path)], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not an Echo record');
    expect(r.stderr).toContain(expected);
    expect(r.stdout + r.stderr).not.toContain('--replace');
    expect(existsSync(join(dir, 'drafts'))).toBe(false);
  });

  it('a record whose schema field was lost still converts (the validator then says what is missing)', async () => {
    const record = validEcho();
    delete record.schema;
    const root = makeArchive({ '2026/echo-2026-01-02-000001.json': JSON.stringify(record, null, 2) + '\n' });
    const r = await runNew(['--to-md', join(root, '2026/echo-2026-01-02-000001.json')], workDir());
    expect(r.code, r.stderr).toBe(0);
  });

  it('refuses a record that is not strict JSON', async () => {
    const root = makeArchive({ 'bad.json': '{"a": 1, "a": 2}' });
    const r = await runNew(['--to-md', join(root, 'bad.json')], workDir());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('json/duplicate-key');
  });
});
