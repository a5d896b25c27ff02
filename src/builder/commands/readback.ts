/**
 * readback: final inclusion, proven from the public index (spec 1.4, section 3 rule 4). Exit 0 only when the index
 * (/api/index.json, or the shards its manifest lists) has an entry with the submission's submission_sha256 (or the
 * record id) AND the raw record at that entry's url hashes to the entry's sha256 AND, when the site has a
 * transparency log (or a log key is given), the leaf {id, leaf_index, sha256 of those bytes} is proven in the tree
 * of the log's signed checkpoint (src/builder/log.ts); 1 when not (yet) included or not proven; 2 on error.
 *
 * The index format is /api/public-index-schema.v1.json: a single document with `records`, or a manifest whose
 * `shards` ({url, sha256}) point to shard documents with `records`. Entry and shard urls beginning with a slash
 * are relative to the site's base URL.
 */
import { writeFileSync } from 'node:fs';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { keyTag } from '../../core/log/note.ts';
import { submissionSha256, type JsonObject } from '../../core/record-chain/index.ts';
import { EXIT_ERROR, EXIT_NO, EXIT_OK, info, out, str, UsageError, type CommandSpec } from '../cli.ts';
import { defaultIndexUrl } from '../config.ts';
import { indexDocuments, type IndexDocuments } from '../index-documents.ts';
import { getOk, httpUrl, NetworkError, timeoutSeconds, withAddressHint } from '../net.ts';
import { LOG_KEY_OPTION, logKeys, NotInLog, proveInclusion, b64 } from '../log.ts';
import { LOG_DOCUMENT_PATH } from '../../core/log/publish.ts';
import { readInput } from './files.ts';

const HEX64 = /^[a-f0-9]{64}$/;

interface IndexEntry {
  id?: unknown;
  url?: unknown;
  path?: unknown;
  sha256?: unknown;
  submission_sha256?: unknown;
  leaf_index?: unknown;
  archive_status?: unknown;
  superseded_by?: unknown;
}

/** The site base a relative index url is resolved against: the index URL without /api/index.json, else its origin. */
export function siteBaseOf(indexUrl: string): string {
  const url = new URL(indexUrl);
  const m = /^(.*)\/api\/index\.json$/.exec(url.pathname);
  return url.origin + (m ? m[1]! : '');
}

export function resolveSiteUrl(value: string, base: string): string {
  if (/^https?:\/\//i.test(value)) return value;
  return `${base}/${value.replace(/^\/+/, '')}`;
}

function entriesOf(doc: unknown, where: string): IndexEntry[] {
  const records = Array.isArray(doc) ? doc : (doc as { records?: unknown; entries?: unknown } | null)?.records ?? (doc as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(records)) throw new NetworkError(`${where} is not a public index: no records list`);
  return records.filter((e): e is IndexEntry => typeof e === 'object' && e !== null);
}

function sha256FromFile(path: string): string {
  const parsed = parseStrictJson(readInput(path));
  if (!parsed.isObject) throw new UsageError(`--file ${path} is not a submission (a JSON object)`);
  const record = (parsed.value as JsonObject).record;
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new UsageError(`--file ${path} has no record object`);
  return submissionSha256(record as JsonObject);
}

const CONVENTIONAL_ID = /^echo-\d{4}-\d{2}-\d{2}-\d{6}$/;
const ID_SHAPE = 'A record id is echo-YYYY-MM-DD-NNNNNN (e.g. echo-2026-01-14-000001), or for a record named otherwise its file name without .json';

/**
 * Why --id cannot name a record, or undefined when it can: an id is a record's file name without .json (DECISIONS 1),
 * conventionally echo-YYYY-MM-DD-NNNNNN, so it is never empty and never holds a path, a URL, spaces or ".json".
 */
export function malformedId(id: string): string | undefined {
  if (HEX64.test(id.toLowerCase())) return `--id ${id} is a SHA-256, not a record id: give it with --submission-sha256 (a submission's hash), or give the record's id. ${ID_SHAPE}.`;
  if (/^https?:\/\//i.test(id)) return `--id ${id} is an address, not a record id. ${ID_SHAPE}; the address's file name without .json is the id.`;
  const stem = id.endsWith('.json') ? id.slice(0, -'.json'.length).replace(/^.*\//, '') : undefined;
  if (stem !== undefined) return `--id ${id} is a file name, not a record id: the id is the file name without .json${stem ? ` (--id ${stem})` : ''}. ${ID_SHAPE}.`;
  if (id === '' || /[\s/\\]/.test(id) || /[\u0000-\u001f\u007f]/.test(id)) return `--id "${id}" is not a record id (an id has no spaces, slashes or control characters). ${ID_SHAPE}.`;
  if (/^echo-[\d-]*$/i.test(id) && !CONVENTIONAL_ID.test(id)) return `--id ${id} is not a record id: the number is malformed. ${ID_SHAPE}.`;
  return undefined;
}

/** Still included, and no longer current: a correction superseded it (DECISIONS 16); say by which records. */
function supersededNote(entry: IndexEntry): void {
  if (entry.archive_status !== 'superseded') return;
  const by = Array.isArray(entry.superseded_by) ? entry.superseded_by.filter((x): x is string => typeof x === 'string') : [];
  info(`the record is superseded${by.length > 0 ? ` by ${by.join(', ')}` : ''}: it stays in the archive as it was, and is no longer current.`);
}

export const readback: CommandSpec = {
  name: 'readback',
  summary: 'prove final inclusion: find the record in the public index and check its bytes',
  usage: 'readback (--file FILE | --submission-sha256 HEX | --id ID) [--index URL] [--log-key KEY] [--save-checkpoint FILE]',
  options: [
    { name: 'file', type: 'string', value: 'FILE', description: 'the submission file (its submission_sha256 is computed)' },
    { name: 'submission-sha256', type: 'string', value: 'HEX', description: 'the submission_sha256 (from the builder or the receipt)' },
    { name: 'id', type: 'string', value: 'ID', description: 'the record id (any record of the archive)' },
    { name: 'index', type: 'string', value: 'URL', description: 'the public index (default: /api/index.json of the site this builder was built for)' },
    LOG_KEY_OPTION,
    { name: 'save-checkpoint', type: 'string', value: 'FILE', description: 'write the signed checkpoint the inclusion was proven against to FILE (evidence; monitor --checkpoint FILE later)' },
    { name: 'timeout', type: 'string', value: 'SECONDS', description: 'give up on a request after this long (default 30)' },
  ],
  notes: [
    'Exit 0 only when the index lists an entry with this submission_sha256 and the raw record at its url hashes to the entry\'s sha256; 1 when the record is not (yet) included; 2 on error. Inclusion follows intake review and the next publication of the archive, so 1 right after submit is normal.',
    'Transparency log: when the site publishes a log key (/api/log.json) or --log-key is given, readback also proves that the record\'s current bytes are a leaf of the log\'s signed checkpoint (an inclusion proof made from the log\'s tiles), and refuses (1) when they are not. --save-checkpoint keeps that checkpoint as evidence for a third party and for monitor.',
    'A site without a transparency-log key publishes no checkpoint: readback then proves inclusion from the index alone (exit 0), but with --save-checkpoint it says that nothing was saved and why, and exits 2: the evidence asked for does not exist.',
    `--id takes a record id: its file name without .json, conventionally echo-YYYY-MM-DD-NNNNNN. A path, an address, a ".json" file name or a SHA-256 is refused (exit 2) with what to give instead.`,
  ],
  examples: [
    'readback --file propagation.json --save-checkpoint checkpoint.txt',
    'readback --submission-sha256 <64 hex> --index https://echoes.example.org/api/index.json',
    'readback --id echo-2026-01-14-000001 --log-key echoes.example.org/log+1234abcd+AaBb…',
  ],
  async run(values) {
    const file = str(values, 'file');
    const given = str(values, 'submission-sha256');
    const id = str(values, 'id');
    if ([file, given, id].filter((v) => v !== undefined).length !== 1) throw new UsageError('give exactly one of --file, --submission-sha256 or --id');
    const sha = id !== undefined ? undefined : given !== undefined ? given.trim().toLowerCase() : sha256FromFile(file!);
    if (sha !== undefined && !HEX64.test(sha)) throw new UsageError(`--submission-sha256 must be 64 hexadecimal characters (found "${given}")`);
    const badId = id !== undefined ? malformedId(id) : undefined;
    if (badId) throw new UsageError(badId);
    const wanted = (e: IndexEntry) => (sha !== undefined ? e.submission_sha256 === sha : e.id === id);
    const what = sha !== undefined ? `submission_sha256 ${sha}` : `id ${id}`;
    const seconds = timeoutSeconds(str(values, 'timeout'));
    const indexUrl = httpUrl(str(values, 'index') ?? defaultIndexUrl(), 'index').href;
    const base = siteBaseOf(indexUrl);

    let index: IndexDocuments;
    try {
      index = indexDocuments(await getOk(indexUrl, seconds), (url) => getOk(resolveSiteUrl(url, base), seconds));
    } catch (err) {
      throw withAddressHint(err, 'public index', 'index', str(values, 'index') === undefined, 'the /api/index.json of its SITE_URL');
    }
    let listed = 0;
    const matches: IndexEntry[] = [];
    for await (const { doc, body } of index.documents()) {
      const entries = entriesOf(doc, index.sharded ? body.url : indexUrl);
      listed += entries.length;
      matches.push(...entries.filter(wanted));
      if (matches.length > 0) break;
    }

    if (matches.length === 0) {
      info(`not (yet) included: ${indexUrl} lists no record with ${what}${index.sharded ? '' : ` (${listed} records listed)`}.`);
      info('A receipt is intake only; a record is included after intake review and the next publication of the archive.');
      return EXIT_NO;
    }

    for (const entry of matches) {
      const where = typeof entry.url === 'string' ? entry.url : typeof entry.path === 'string' ? entry.path : undefined;
      if (where === undefined || typeof entry.sha256 !== 'string') throw new NetworkError(`the index entry ${String(entry.id)} has no url or sha256`);
      const rawUrl = resolveSiteUrl(where, base);
      const raw = await getOk(rawUrl, seconds, 'application/json');
      const actual = sha256Hex(raw.bytes);
      if (actual !== entry.sha256) {
        info(`listed as ${String(entry.id)}, but the bytes at ${rawUrl} hash to ${actual}, not the index's ${entry.sha256}: not verifiably included (the site may be mid-publication: try again later).`);
        continue;
      }
      // When the archived record names its submission (extensions.record_chain.submission_sha256), it must be this one.
      const archived = parseStrictJson(raw.bytes);
      const named = ((archived.value as JsonObject | undefined)?.extensions as JsonObject | undefined)?.record_chain as JsonObject | undefined;
      if (sha !== undefined && named && typeof named.submission_sha256 === 'string' && named.submission_sha256 !== sha) {
        info(`the record at ${rawUrl} names submission ${named.submission_sha256}, not ${sha}: not this submission.`);
        continue;
      }
      const keys = await logKeys(values, base, seconds);
      if (keys === undefined) {
        out(`included: ${String(entry.id)} ${rawUrl} sha256 ${actual}\n`);
        info(`final inclusion verified: the public index lists ${what} and the raw record's bytes match its sha256. The site publishes no transparency-log key: no inclusion proof was checked.`);
        supersededNote(entry);
        const saveTo = str(values, 'save-checkpoint');
        if (saveTo !== undefined) {
          // The checkpoint asked for does not exist: say so, and do not let a script go on as if it had been kept.
          info(
            `nothing was saved to ${saveTo}: the site publishes no signed checkpoint (it has no transparency-log key: ${base}${LOG_DOCUMENT_PATH} is absent or lists no key), ` +
              'so there is no inclusion proof to keep and nothing for monitor to check later. Keep the record\'s bytes and this output instead, ' +
              'or ask the site\'s operator to publish the log; with a verifier key you trust, --log-key KEY requires the log.',
          );
          return EXIT_ERROR;
        }
        return EXIT_OK;
      }
      if (typeof entry.leaf_index !== 'number' || !Number.isSafeInteger(entry.leaf_index) || entry.leaf_index < 0) {
        info(`listed as ${String(entry.id)} and its bytes match the index, but the index gives no leaf_index: these bytes are not in the transparency log (not yet logged, or changed after logging). Not proven.`);
        return EXIT_NO;
      }
      try {
        const proven = await proveInclusion(base, keys, { id: String(entry.id), index: entry.leaf_index, sha256: actual }, seconds);
        const { checkpoint } = proven;
        const saveTo = str(values, 'save-checkpoint');
        if (saveTo !== undefined) writeFileSync(saveTo, checkpoint.note);
        out(`included: ${String(entry.id)} ${rawUrl} sha256 ${actual}\n`);
        out(`in log: leaf ${proven.leafIndex} of ${checkpoint.origin}, tree size ${checkpoint.size}, root ${b64(checkpoint.root)}\n`);
        info(
          `final inclusion verified: the public index lists ${what}, the raw record's bytes match its sha256, and the leaf {id, index ${proven.leafIndex}, sha256 of those bytes} ` +
            `is proven (${proven.proofHashes} proof hashes from ${proven.tilesFetched} tiles) in the tree of size ${checkpoint.size} whose checkpoint is signed by ${checkpoint.verifiedBy.map(keyTag).join(', ')}` +
            `${keys.pinned ? ' (the key you gave)' : ''}.${saveTo !== undefined ? ` Checkpoint saved to ${saveTo}.` : ''}`,
        );
        supersededNote(entry);
        return EXIT_OK;
      } catch (err) {
        if (!(err instanceof NotInLog)) throw err;
        info(`listed as ${String(entry.id)} and its bytes match the index, but not proven in the transparency log: ${err.message}`);
        return EXIT_NO;
      }
    }
    return EXIT_NO;
  },
};
