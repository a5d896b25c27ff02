/**
 * The bundled builder's offline contract (issue 4): commands, --help, exit codes, keys, building every record type,
 * and doctor with the validate CLI's diagnostics formats.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/builder/main.ts';
import { bundledBuilder, propagationArgs } from './helpers.ts';

const builder = bundledBuilder({ siteUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' });
const PKG = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const COMMAND_NAMES = ['keygen', 'echo', 'verification', 'propagation', 'correction', 'context-insufficient', 'guardian-application', 'guardian-retirement', 'classification-update', 'evidence', 'claim-gate', 'report', 'doctor', 'preflight', 'submit', 'receipt', 'readback', 'monitor', 'mcp'];

const AGENT = ['--agent-name', 'test-model', '--agent-provider', 'test-provider'];
const DISCOVERY = [
  '--discovery-source', 'search_engine',
  '--agency-level', 'A4_independent_search_or_browsing_discovery',
  '--first-entry', 'https://example.org/',
  '--first-entry-type', 'homepage',
  '--human-supplied-link', 'no',
  '--other-agent-recommended', 'no',
  '--independent-followup', 'yes',
  '--confidence', 'medium',
];
const CLAIM = [
  '--digital-profile', 'integrity_checked',
  '--relationship', 'archive hash equals registry entry',
  '--coverage-scope', 'minimal_single_check',
  '--covered', 'release v1.0 archive',
  '--limitation', 'one artifact only',
  '--claim-not-made', 'no claim about other releases',
  '--corrections-checked', 'no',
];
const RECORD_ARGS: Record<string, string[]> = {
  echo: [
    ...AGENT,
    '--context-depth', 'C2_registry_aware',
    '--assessment-state', 'structural_understanding',
    '--summary', 'An archive of agent statements; non-authoritative.',
    '--echo', 'I read the homepage and the registry.',
    '--uncertainty', 'I did not check the hashes.',
    ...DISCOVERY,
  ],
  verification: [...AGENT, '--subject', 'SHA-256 of release v1.0', '--summary', 'Recomputed the hash; it matches.', ...CLAIM, '--legacy-v-level', 'V2', '--evidence', 'sha256sum release.tar.gz'],
  propagation: propagationArgs('KEYS', 'OUT').slice(1, -2).filter((_, i, a) => !(a[i - 1] === '--key-dir' || a[i] === '--key-dir')),
  correction: [...AGENT, '--target-sha256', 'a'.repeat(64), '--what', 'the count', '--corrected-statement', 'It was 15.', '--reason', 'I miscounted.'],
  'context-insufficient': [...AGENT, '--read', 'https://example.org/', '--missing', 'the registry and the artifacts'],
};

async function keyDir(): Promise<string> {
  const dir = join(builder.tempDir(), 'keys');
  const r = await builder.run(['keygen', '--key-dir', dir]);
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

describe('commands and help', () => {
  it('the command list is exactly the issue’s', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(COMMAND_NAMES);
  });

  it('--help lists every command; --version prints the version; no command is a usage error', async () => {
    const help = await builder.run(['--help']);
    expect(help.code).toBe(0);
    for (const name of COMMAND_NAMES) expect(help.stdout).toContain(`  ${name} `);
    expect(help.stdout).toContain('Site: https://archive.example.test');
    expect((await builder.run(['--version'])).stdout.trim()).toBe(PKG.version);
    const none = await builder.run([]);
    expect(none.code).toBe(2);
  });

  it.each(COMMAND_NAMES)('%s --help lists its options with examples', async (name) => {
    const r = await builder.run([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: node record-chain-builder.mjs ${name}`);
    expect(r.stdout).toContain('Options:');
    expect(r.stdout).toContain(`Examples:\n  node record-chain-builder.mjs ${name} `);
    const spec = COMMANDS.find((c) => c.name === name)!;
    for (const o of spec.options) expect(r.stdout).toContain(`--${o.name}`);
    expect((await builder.run(['help', name])).stdout).toBe(r.stdout);
  });

  it('unknown commands and options are usage errors (exit 2)', async () => {
    const a = await builder.run(['publish']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('unknown command "publish"');
    const b = await builder.run(['doctor', '--file', 'x.json', '--fast']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("Unknown option '--fast'");
    expect(b.stderr).toContain('doctor --help');
  });
});

describe('keygen', () => {
  it('writes a 0600 private key that is never printed, and refuses to overwrite it', async () => {
    const dir = join(builder.tempDir(), 'k');
    const r = await builder.run(['keygen', '--key-dir', dir]);
    expect(r.code).toBe(0);
    const privatePath = join(dir, 'private-key.pem');
    const pem = readFileSync(privatePath, 'utf8');
    expect(pem).toContain('BEGIN PRIVATE KEY');
    expect(statSync(privatePath).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o077).toBe(0);
    const body = pem.split('\n')[1]!;
    for (const stream of [r.stdout, r.stderr]) {
      expect(stream).not.toContain('PRIVATE KEY-----');
      expect(stream).not.toContain(body);
    }
    expect(r.stdout).toMatch(/^public_key [A-Za-z0-9+/]{43}=\n$/);

    const again = await builder.run(['keygen', '--key-dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('never overwritten');
    expect(readFileSync(privatePath, 'utf8')).toBe(pem);
  });

  it('a private key readable by others is refused', async () => {
    const dir = await keyDir();
    execFileSync('chmod', ['644', join(dir, 'private-key.pem')]);
    const r = await builder.run(propagationArgs(dir, join(builder.tempDir(), 'p.json')));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the private key file ${join(dir, 'private-key.pem')} allows access by group or others (mode 644): run "chmod 600 ${join(dir, 'private-key.pem')}" first`);
  });
});

describe('building records', () => {
  it.each(Object.keys(RECORD_ARGS))('%s: builds a valid, signed submission that doctor accepts', async (name) => {
    const keys = await keyDir();
    const dir = builder.tempDir();
    const out = join(dir, `${name}.json`);
    const r = await builder.run([name, '--key-dir', keys, ...RECORD_ARGS[name]!, '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/submission_sha256 [a-f0-9]{64}/);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.schema).toBe('service.record-chain-submission.v1');
    expect(doc.client.name).toBe('echo-archive-record-chain-builder');
    expect(doc.client.version).toBe(PKG.version);
    const d = await builder.run(['doctor', '--file', out], { cwd: dir });
    expect(d.code, d.stdout).toBe(0);
    expect(d.stdout).toContain('✔ 1 file valid');
    expect(d.stdout).toContain('signature verified offline');
  });

  it('the same content gives the same submission_sha256, whenever it is built', async () => {
    const keys = await keyDir();
    const dir = builder.tempDir();
    const a = await builder.run(propagationArgs(keys, join(dir, 'a.json')));
    await new Promise((r) => setTimeout(r, 20));
    const b = await builder.run(propagationArgs(keys, join(dir, 'b.json')));
    const sha = (s: string) => /submission_sha256 ([a-f0-9]{64})/.exec(s)![1];
    expect(sha(a.stderr)).toBe(sha(b.stderr));
    const [da, db] = [JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')), JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'))];
    expect(da.record).toEqual(db.record);
    expect(da.proof.content_hash_sha256).toBe(sha(a.stderr));
  });

  it('without --out the submission goes to standard output', async () => {
    const keys = await keyDir();
    const args = propagationArgs(keys, 'unused').slice(0, -2);
    const r = await builder.run(args);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).record_type).toBe('propagation');
  });

  it('a forbidden claim: exit 1, diagnostics, nothing written', async () => {
    const keys = await keyDir();
    const dir = builder.tempDir();
    const out = join(dir, 'p.json');
    const r = await builder.run(propagationArgs(keys, out, 'This post is endorsed by the creator.'), { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('chain/propagation-forbidden');
    expect(r.stderr).toContain('claiming endorsement by the creator or guardians');
    expect(r.stderr).toContain('Nothing was written');
    expect(existsSync(out)).toBe(false);
  });

  it('a historical-only level: exit 1 with the reason', async () => {
    const keys = await keyDir();
    const args = ['verification', '--key-dir', keys, ...RECORD_ARGS.verification!.map((a) => (a === 'V2' ? 'V6' : a)), '--out', 'v.json'];
    const r = await builder.run(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('chain/historical-level');
    expect(r.stderr).toContain('historical-only');
  });

  it('a pasted secret: exit 1', async () => {
    const keys = await keyDir();
    const r = await builder.run(propagationArgs(keys, 'p.json', 'my token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('chain/secret');
    expect(r.stderr).not.toContain('ghp_a1B2');
  });

  it('missing options: exit 2, naming them', async () => {
    const keys = await keyDir();
    const r = await builder.run(['propagation', '--key-dir', keys, ...AGENT, '--action', 'invite_critique', '--channel', 'a forum']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing --performed-at, --summary, --not-checked');
    expect(r.stderr).toContain('propagation --help');
    const where = await builder.run(['propagation', '--key-dir', keys, ...AGENT, '--action', 'invite_critique', '--performed-at', '2026-11-20T10:00:00Z', '--summary', 's', '--not-checked', 'x']);
    expect(where.code).toBe(2);
    expect(where.stderr).toContain('--channel, --url or both');
    const nokeys = await builder.run(['propagation', ...AGENT]);
    expect(nokeys.code).toBe(2);
    expect(nokeys.stderr).toContain('--key-dir is required');
  });

  it('a wrong value is the schema’s diagnostic (exit 1), with a suggestion', async () => {
    const keys = await keyDir();
    const args = propagationArgs(keys, 'p.json').map((a) => (a === 'point_to_verification' ? 'point_to_verificaton' : a));
    const r = await builder.run(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('schema/enum');
    expect(r.stderr).toContain('Did you mean "point_to_verification"?');
  });

  it('--content supplies record fields; options take precedence', async () => {
    const keys = await keyDir();
    const dir = builder.tempDir();
    writeFileSync(
      join(dir, 'fields.json'),
      JSON.stringify({
        agent_identity: { name_or_model: 'from-file', system_or_provider: 'file-provider', self_reported: true },
        context_depth: 'C1_orientation',
        missing_context: ['the artifacts'],
        note: 'from the file',
      }),
    );
    const r = await builder.run(['context-insufficient', '--key-dir', keys, '--content', 'fields.json', '--note', 'from the option', '--out', 'n.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'n.json'), 'utf8'));
    expect(doc.record).toMatchObject({
      schema: 'service.record-chain-context-insufficient-notice.v1',
      agent_identity: { name_or_model: 'from-file' },
      context_depth: 'C1_orientation',
      assessment_state: 'insufficient_context',
      note: 'from the option',
      boundary: { not_authority: true, bitcoin_originals_prevail: true },
    });
    writeFileSync(join(dir, 'bad.json'), '{"a": 1, "a": 2}');
    const bad = await builder.run(['context-insufficient', '--key-dir', keys, '--content', 'bad.json'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('appears twice');
  });
});

describe('doctor', () => {
  async function built(): Promise<{ dir: string; file: string }> {
    const keys = await keyDir();
    const dir = builder.tempDir();
    const file = join(dir, 'p.json');
    expect((await builder.run(propagationArgs(keys, file))).code).toBe(0);
    return { dir, file };
  }

  it('a tampered file: exit 1, file:line:col rule message and fix, like the validate CLI', async () => {
    const { dir, file } = await built();
    writeFileSync(join(dir, 't.json'), readFileSync(file, 'utf8').replace('verification paths', 'verification path'));
    const r = await builder.run(['doctor', '--file', 't.json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^t\.json\n {2}t\.json:\d+:\d+ error chain\/content-hash proof\.content_hash_sha256 does not match the record/);
    expect(r.stdout).toContain('    fix: ');
    expect(r.stdout).toContain('✖ 1 of 1 file invalid (1 error, 0 warnings)');
  });

  it('--format json is the validate CLI’s machine report', async () => {
    const { dir, file } = await built();
    writeFileSync(join(dir, 't.json'), readFileSync(file, 'utf8').replace('"point_to_verification"', '"point_to_verification",\n    "action": "invite_critique"'));
    const r = await builder.run(['doctor', '--file', 't.json', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toMatchObject({ files: 1, valid: 0, invalid: 1 });
    expect(report.files[0].diagnostics[0]).toMatchObject({ severity: 'error', rule: 'json/duplicate-key', pointer: '/record/action' });
    expect(Object.keys(report.files[0].diagnostics[0]).sort()).toEqual(['column', 'hint', 'line', 'message', 'pointer', 'rule', 'severity']);
  });

  it('--format github annotates', async () => {
    const { dir, file } = await built();
    writeFileSync(join(dir, 't.json'), readFileSync(file, 'utf8').replace('"2026-11-20T10:00:00Z"', '"yesterday"'));
    const r = await builder.run(['doctor', '--file', 't.json', '--format', 'github'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=t\.json,line=\d+,col=\d+,title=schema\/format::/);
  });

  it('a missing file or a bad --format: exit 2', async () => {
    expect((await builder.run(['doctor', '--file', 'nope.json'])).code).toBe(2);
    const { file } = await built();
    expect((await builder.run(['doctor', '--file', file, '--format', 'xml'])).code).toBe(2);
  });
});

// The builder promises Node ≥ 20: run it on an older Node of this machine when there is one.
const systemNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
  try {
    const v = execFileSync(p, ['--version'], { encoding: 'utf8' }).trim();
    return Number(/^v(\d+)/.exec(v)?.[1]) >= 20 && v !== process.version;
  } catch {
    return false;
  }
});

if (!systemNode) console.warn(`[builder] older-Node case skipped: no Node ≥ 20 other than ${process.version} at /usr/bin/node or /usr/local/bin/node (the builder promises Node ≥ 20; install Debian's nodejs to run it).`);

describe.skipIf(!systemNode)(`on ${systemNode ?? 'another Node'}`, () => {
  it('keygen, propagation and doctor work', async () => {
    const node = systemNode!;
    const dir = builder.tempDir();
    expect((await builder.run(['keygen', '--key-dir', 'keys'], { cwd: dir, node })).code).toBe(0);
    expect((await builder.run(propagationArgs('keys', 'p.json'), { cwd: dir, node })).code).toBe(0);
    const d = await builder.run(['doctor', '--file', 'p.json'], { cwd: dir, node });
    expect(d.code, d.stdout + d.stderr).toBe(0);
  });
});
