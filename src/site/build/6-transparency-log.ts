/**
 * The transparency log in the site build: reads the archive's committed log (<archive>/.tlog/, src/core/log/), gives
 * every record its leaf index and versions, and writes the log under /log/ of the output when the build is done.
 *
 * - A log that was rewritten, or a record that the log has and the archive lost, fails the build, naming it.
 * - Records whose current bytes are not logged yet are published without a leaf index, with a warning that names
 *   them (`npm run log:append` logs them).
 * - Without a log signing key the tiles are published but no checkpoint, and the build says so.
 * - An archive without a .log folder has no log: the build says so and publishes none.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, linkIfChanged, writeIfChanged } from '../../core/util/update-in-place.ts';
import { LogStateError, reconcile, VERSIONS_DIR, type PendingLeaf } from '../../core/log/archive-log.ts';
import { readLogState, logDir, type LogState } from '../../core/log/log-files.ts';
import { LOG_PREFIX, logFiles, versionUrl } from '../../core/log/publish.ts';
import { LOG_SIGNING_KEY_ENV, LOG_SIGNING_KEY_FILE_ENV, LogKeyError, logSigners } from '../../core/log/signing-key.ts';
import { keyTag, type NoteSigner } from '../../core/log/note.ts';
import { ArchiveBuildError, type SiteRecord } from './2-read-archive.ts';
import type { ArchiveLogger } from './console-logger.ts';

export interface SiteLog {
  archiveRoot: string;
  state: LogState;
  pending: PendingLeaf[];
  signers: NoteSigner[] | undefined;
}

const LOG_HINT = 'See docs/transparency-log.md.';

/** Reads the archive's log and sets `log` on every record; undefined when the archive has no log. */
export function readSiteLog(archiveRoot: string, records: SiteRecord[], logger: ArchiveLogger, env: Record<string, string | undefined> = process.env): SiteLog | undefined {
  let state: LogState | undefined;
  let signers: NoteSigner[] | undefined;
  try {
    state = readLogState(archiveRoot);
    if (!state) {
      logger.warn(`The archive has no transparency log (${logDir(archiveRoot)} is missing): no leaf indexes, tiles or checkpoint are published. Run npm run log:append to start one.`);
      return undefined;
    }
    signers = logSigners(env);
    const { byId, pending } = reconcile(state.leaves, records);
    for (const record of records) {
      const { current, versions } = byId.get(record.id)!;
      record.log = {
        leafIndex: current?.index ?? null,
        versions: versions.map((v) => ({
          leafIndex: v.index,
          sha256: v.sha256,
          current: v === current,
          url: v !== current && existsSync(join(state!.dir, VERSIONS_DIR, `${v.sha256}.json`)) ? versionUrl(v.sha256) : null,
        })),
      };
    }
    if (pending.length > 0) {
      const names = pending.slice(0, 10).map((p) => `${p.path} (${p.kind === 'new' ? 'new record' : 'new version'})`);
      logger.warn(
        `${pending.length} record${pending.length === 1 ? '' : 's'} ${pending.length === 1 ? 'is' : 'are'} not in the transparency log at ${pending.length === 1 ? 'its' : 'their'} current bytes and ${pending.length === 1 ? 'is' : 'are'} published without a leaf index: ${names.join(', ')}${pending.length > 10 ? ', …' : ''}. Run npm run log:append and commit ${logDir(archiveRoot)}.`,
      );
    }
    if (!signers) {
      logger.warn(`No log signing key (${LOG_SIGNING_KEY_FILE_ENV} or ${LOG_SIGNING_KEY_ENV}): the log's tiles are published, but no checkpoint, so agents cannot verify inclusion against this build.`);
    }
    logger.info(`Transparency log: ${state.tree.size} leaves${signers ? `, checkpoint signed by ${signers.map(keyTag).join(' and ')}` : ''}`);
    return { archiveRoot, state, pending, signers };
  } catch (err) {
    if (err instanceof LogStateError) throw new ArchiveBuildError(`Transparency log: ${err.message}`, err.hint);
    if (err instanceof LogKeyError) throw new ArchiveBuildError(`Transparency log key: ${err.message}`, LOG_HINT);
    throw err;
  }
}

/**
 * Writes the log into `<outDir>/log/`: tiles, entry bundles, earlier versions and (with a key) the checkpoint, each
 * only if its bytes change (src/core/util/update-in-place.ts). Its files, as paths from `outDir`, and how many changed.
 */
export function writeSiteLog(log: SiteLog, outDir: string): { files: string[]; changed: number } {
  const files: string[] = [];
  let changed = 0;
  const base = LOG_PREFIX.slice(1); // "log/": the log's place on the site, from the site's root
  for (const file of logFiles(log.state.entries, log.state.tree, log.signers)) {
    const path = `${base}${file.path}`;
    if (writeIfChanged(join(outDir, path), file.bytes)) changed++;
    files.push(path);
  }
  // Earlier versions are the archive's files, byte for byte: linked (copied across file systems).
  const versions = join(log.state.dir, VERSIONS_DIR);
  if (existsSync(versions)) {
    for (const name of filesUnder(versions)) {
      const path = `${base}${VERSIONS_DIR}/${name}`;
      if (linkIfChanged(join(versions, name), join(outDir, path)).changed) changed++;
      files.push(path);
    }
  }
  return { files, changed };
}
