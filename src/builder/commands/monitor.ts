/**
 * monitor --checkpoint OLD: has the log kept its history since a checkpoint the agent saved (readback
 * --save-checkpoint, or an earlier monitor --update)? The saved checkpoint must verify with the log key; the site's
 * current checkpoint too; then a consistency proof made from the site's tiles must show that the current tree
 * extends the saved one (RFC 9162 2.1.4).
 *
 * Exit 0: the current tree extends the saved one. 1: history was rewritten; stdout then holds the proof: the two
 * signed checkpoints (and the consistency proof that fails), which anyone with the log key can check. 2: error
 * (unreadable or unverifiable saved checkpoint, another log, network).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { hashesEqual } from '../../core/log/merkle.ts';
import { keyTag } from '../../core/log/note.ts';
import { ProofError, verifyConsistency } from '../../core/log/proof.ts';
import { EXIT_NO, EXIT_OK, flag, info, out, requireStr, str, UsageError, type CommandSpec } from '../cli.ts';
import { builderConfig } from '../config.ts';
import { b64, CheckpointProblem, fetchCheckpoint, LOG_KEY_OPTION, logKeys, openSignedCheckpoint, tileReader } from '../log.ts';
import { httpUrl, NetworkError, timeoutSeconds, withAddressHint } from '../net.ts';

function evidence(title: string, oldNote: string, newNote: string, proof?: readonly Uint8Array[]): string {
  return [
    `HISTORY REWRITTEN: ${title}`,
    '',
    '--- saved checkpoint (signed) ---',
    oldNote.trimEnd(),
    '--- current checkpoint (signed) ---',
    newNote.trimEnd(),
    ...(proof ? ['--- consistency proof from the current tiles (base64, fails to verify) ---', ...proof.map(b64)] : []),
    '',
  ].join('\n');
}

export const monitor: CommandSpec = {
  name: 'monitor',
  summary: 'prove that the archive\'s log extends a checkpoint you saved (nothing rewritten or dropped)',
  usage: 'monitor --checkpoint FILE [--site URL] [--log-key KEY] [--update]',
  options: [
    { name: 'checkpoint', type: 'string', value: 'FILE', required: true, description: 'a signed checkpoint saved earlier (readback --save-checkpoint, or monitor --update)' },
    { name: 'site', type: 'string', value: 'URL', description: 'the site\'s base URL (default: the site this builder was built for)' },
    LOG_KEY_OPTION,
    { name: 'update', type: 'boolean', description: 'when consistent, replace FILE with the current checkpoint' },
    { name: 'timeout', type: 'string', value: 'SECONDS', description: 'give up on a request after this long (default 30)' },
  ],
  notes: [
    'Exit 0 when the current signed tree extends the saved one; 1 when history was rewritten (the two signed checkpoints and the failing proof are printed: keep them, they prove it to anyone); 2 on error.',
  ],
  examples: ['monitor --checkpoint checkpoint.txt', 'monitor --checkpoint checkpoint.txt --site https://echoes.example.org --log-key echoes.example.org/log+1234abcd+AaBb… --update'],
  async run(values) {
    const file = requireStr(values, 'checkpoint');
    const seconds = timeoutSeconds(str(values, 'timeout'));
    const base = httpUrl(str(values, 'site') ?? builderConfig().baseUrl, 'site').href.replace(/\/+$/, '');
    let oldNote: string;
    try {
      oldNote = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`--checkpoint ${file} cannot be read: ${(err as Error).message}`);
    }
    let keys;
    try {
      keys = await logKeys(values, base, seconds);
    } catch (err) {
      throw withAddressHint(err, 'site', 'site', str(values, 'site') === undefined, 'its SITE_URL');
    }
    if (!keys) throw new NetworkError(`${base} publishes no transparency-log key (/api/log.json) and none was given with --log-key`);
    let saved, current;
    try {
      try {
        saved = openSignedCheckpoint(oldNote, keys, `the saved checkpoint ${file}`);
      } catch (err) {
        // Unpinned, the keys come from the site: a saved checkpoint they cannot verify means the site's key changed.
        if (err instanceof CheckpointProblem && !keys.pinned) {
          throw new CheckpointProblem(`${err.message} (with the key the site publishes now: its log key changed since you saved the checkpoint, or the file is not one; give the key you trusted then with --log-key)`);
        }
        throw err;
      }
      current = await fetchCheckpoint(base, keys, seconds);
    } catch (err) {
      if (err instanceof CheckpointProblem) throw new NetworkError(err.message);
      throw err;
    }
    if (saved.origin !== current.origin) throw new NetworkError(`the saved checkpoint is of log "${saved.origin}", the site's of "${current.origin}"`);
    const signedBy = current.verifiedBy.map(keyTag).join(', ');

    if (current.size < saved.size) {
      out(evidence(`the log shrank from ${saved.size} to ${current.size} leaves`, saved.note, current.note));
      info(`history rewritten: the current signed tree has ${current.size} leaves, fewer than the ${saved.size} of the saved checkpoint (leaves were dropped).`);
      return EXIT_NO;
    }
    if (current.size === saved.size) {
      if (!hashesEqual(current.root, saved.root)) {
        out(evidence(`two signed trees of ${saved.size} leaves with different roots`, saved.note, current.note));
        info(`history rewritten: two checkpoints of size ${saved.size} are signed with different roots.`);
        return EXIT_NO;
      }
      info(`consistent: the log has not changed (size ${current.size}, root ${b64(current.root)}, signed by ${signedBy}).`);
      return EXIT_OK;
    }
    let proof: Uint8Array[] = [];
    if (saved.size > 0) {
      const reader = tileReader(base, current.size, seconds);
      try {
        proof = await reader.consistencyProof(saved.size);
      } catch (err) {
        if (err instanceof NetworkError) throw err;
        throw new NetworkError(`the log's tiles cannot give a consistency proof: ${(err as Error).message}`);
      }
      try {
        verifyConsistency(saved.size, current.size, proof, saved.root, current.root);
      } catch (err) {
        if (!(err instanceof ProofError)) throw err;
        out(evidence(`the tree of ${current.size} leaves does not extend the saved tree of ${saved.size}`, saved.note, current.note, proof));
        info(`history rewritten: ${err.message}. The current log does not extend the tree of your saved checkpoint: a leaf among the first ${saved.size} was changed or removed.`);
        return EXIT_NO;
      }
    }
    out(`consistent: ${current.origin} ${saved.size} → ${current.size} leaves, root ${b64(current.root)}\n`);
    info(`consistency proven: the current tree (size ${current.size}, signed by ${signedBy}) extends your saved tree (size ${saved.size}) with a proof of ${proof.length} hashes from the site's tiles.`);
    if (flag(values, 'update')) {
      writeFileSync(file, current.note);
      info(`saved the current checkpoint to ${file}.`);
    }
    return EXIT_OK;
  },
};
