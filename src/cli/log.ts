/**
 * The transparency log's maintainer commands (docs/transparency-log.md):
 *
 *   npm run log:append -- [--root DIR] [--dry-run]   log every record whose current bytes are not logged yet
 *   npm run log:check  -- [--root DIR]               is every record logged at its current bytes? (CI, before a deploy)
 *   npm run log:keygen -- --name ORIGIN --out FILE    a new log signing key (mode 0600) and its verifier key
 *
 * Exit status: 0 done / all logged; 1 the archive or its log has a problem (named), or records are not logged
 * (check); 2 usage or internal error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { validateArchive } from '../core/archive/validate-archive.ts';
import { recordsRoot } from '../core/config.ts';
import { generateEd25519KeyPair } from '../core/crypto/ed25519.ts';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { appendLeaves, LogStateError, reconcile, VERSIONS_DIR, type PendingLeaf } from '../core/log/archive-log.ts';
import { appendToLog, logDir, readLogState, repairInterruptedAppend, type LogState } from '../core/log/log-files.ts';
import { signerKeyText } from '../core/log/note.ts';
import { byArchivePath } from '../core/publish/records.ts';

const HELP = `The archive's transparency log (docs/transparency-log.md).

Usage:
  npm run log:append -- [--root DIR] [--dry-run]
      Appends a leaf for every record whose current bytes are not in the log (a new record, or a new version of a
      logged one), in archive-path order, to <root>/.tlog/; keeps the earlier bytes of a record that has a new
      version (read from git HEAD) under <root>/.tlog/versions/. Commit <root>/.tlog/ with the records.
  npm run log:check -- [--root DIR]
      Exit 0 when the log is intact and every record is logged at its current bytes; 1 otherwise, naming them.
  npm run log:keygen -- --name ORIGIN --out FILE
      Writes a new Ed25519 log signing key (C2SP signed-note form) to FILE with mode 0600 and prints its verifier
      key. ORIGIN names the log, e.g. echoes.example.org/log. Keep FILE out of the repository; the build reads it
      from LOG_SIGNING_KEY_FILE (or the key text from LOG_SIGNING_KEY).

  --root DIR   archive root (default: $RECORDS_DIR, else records/)
  -h, --help   this help

Exit status: 0 done, 1 a problem with the archive or its log (named), or records not logged (check), 2 usage error.
`;

class UsageError extends Error {}

interface ArchiveRecordRef {
  id: string;
  path: string;
  sha256: string;
}

async function readRecords(root: string): Promise<ArchiveRecordRef[] | undefined> {
  const report = await validateArchive(root);
  if (report.summary.invalid > 0) {
    console.error(`The archive has ${report.summary.invalid} invalid record(s): only valid records are logged. Run npm run validate and fix them first.`);
    return undefined;
  }
  const records = report.files
    .filter((f) => f.path.endsWith('.json') && f.file.record && f.file.bytes)
    .map((f) => ({ id: f.id, path: f.path, sha256: sha256Hex(f.file.bytes!) }));
  return byArchivePath(records);
}

function describe(p: PendingLeaf): string {
  return `${p.path} (${p.kind === 'new' ? 'new record' : 'new version'}, sha256 ${p.sha256})`;
}

/** The earlier bytes of a record that has a new version, from git HEAD, when they hash to its last leaf. */
function earlierBytes(root: string, path: string, sha256: string): Uint8Array | undefined {
  try {
    const bytes = execFileSync('git', ['-C', root, 'show', `HEAD:./${path}`], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 8 * 1024 * 1024 });
    return sha256Hex(bytes) === sha256 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

async function append(root: string, dryRun: boolean): Promise<number> {
  const records = await readRecords(root);
  if (!records) return 1;
  if (!dryRun) {
    const cut = repairInterruptedAppend(root);
    if (cut > 0) console.log(`Repaired the log: cut ${cut} leaf entr${cut === 1 ? 'y' : 'ies'} an interrupted log:append wrote past the recorded tree head (never committed); appending them again.`);
  }
  const state: LogState | undefined = readLogState(root);
  const { byId, pending } = reconcile(state?.leaves ?? [], records);
  if (pending.length === 0) {
    console.log(`Nothing to append: all ${records.length} records are in the log at their current bytes (${state?.tree.size ?? 0} leaves).`);
    return 0;
  }
  const size = state?.tree.size ?? 0;
  const added = appendLeaves(size, pending);
  const versions = new Map<string, Uint8Array>();
  for (const p of pending.filter((q) => q.kind === 'version')) {
    const previous = byId.get(p.id)!.versions.at(-1)!;
    if (existsSync(join(logDir(root), VERSIONS_DIR, `${previous.sha256}.json`))) continue;
    const bytes = earlierBytes(root, p.path, previous.sha256);
    if (bytes) versions.set(previous.sha256, bytes);
    else console.warn(`warning: the earlier bytes of ${p.id} (leaf ${previous.index}, sha256 ${previous.sha256}) are not in git HEAD: that version stays in the log, but its bytes cannot be published.`);
  }
  for (const p of pending) console.log(`${dryRun ? 'would append' : 'append'} leaf ${added[pending.indexOf(p)]!.index}: ${describe(p)}`);
  if (dryRun) return 0;
  const head = appendToLog(root, state, added, versions);
  console.log(`The log now has ${head.tree_size} leaves (was ${size}), root ${head.root_hash}. Commit ${logDir(root)} with the records.`);
  return 0;
}

async function check(root: string): Promise<number> {
  const records = await readRecords(root);
  if (!records) return 1;
  const state = readLogState(root);
  if (!state) {
    console.error(`The archive has no transparency log (${logDir(root)}): run npm run log:append to start one.`);
    return 1;
  }
  const { pending } = reconcile(state.leaves, records);
  if (pending.length > 0) {
    console.error(`${pending.length} record(s) are not in the log at their current bytes:\n${pending.map((p) => `  ${describe(p)}`).join('\n')}\nRun npm run log:append and commit ${logDir(root)}.`);
    return 1;
  }
  console.log(`The log is intact (${state.tree.size} leaves, root ${state.head.root_hash}) and every one of the ${records.length} records is logged at its current bytes.`);
  return 0;
}

function keygen(name: string | undefined, out: string | undefined): number {
  if (!name || !out) throw new UsageError('log:keygen needs --name ORIGIN and --out FILE');
  const { signer, verifier } = signerKeyText(name, generateEd25519KeyPair().privateKey);
  // 'wx': never overwrite a key.
  try {
    writeFileSync(out, signer + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as { code?: string }).code === 'EEXIST') throw new UsageError(`${out} exists: a key is never overwritten (choose another file)`);
    throw err;
  }
  console.log(`Wrote the log signing key to ${out} (mode 0600; keep it out of the repository).\nVerifier key (public; the build publishes it at /api/log.json):\n${verifier}`);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { root: { type: 'string' }, 'dry-run': { type: 'boolean' }, name: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  const root = resolve(values.root ?? recordsRoot());
  try {
    if (command === 'append') return await append(root, values['dry-run'] === true);
    if (command === 'check') return await check(root);
    if (command === 'keygen') return keygen(values.name, values.out);
  } catch (err) {
    if (err instanceof LogStateError) {
      console.error(`${err.message}\n  fix: ${err.hint}`);
      return 1;
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
      console.error(
        `log: no space left on device (ENOSPC) while writing ${(err as NodeJS.ErrnoException).path ?? logDir(root)}: the append was not committed ` +
          `(tree-head.json is unchanged). Free some space and run npm run log:append again: it cuts what this run wrote past the tree head and appends again.`,
      );
      return 1;
    }
    throw err;
  }
  throw new UsageError(`unknown command "${command}": append, check or keygen`);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `log: ${(err as Error).message}\n\n${HELP}` : err);
    process.exitCode = 2;
  },
);
