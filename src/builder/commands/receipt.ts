import { resolve } from 'node:path';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { readGatewayKeys, validateSubmissionText, verifyReceiptText, type GatewayKeysDocument, type ReceiptExpectation } from '../../core/record-chain/index.ts';
import { COLOR_OPTIONS, EXIT_ERROR, EXIT_NO, EXIT_OK, info, out, requireStr, str, UsageError, useColor, type CommandSpec } from '../cli.ts';
import { defaultKeysUrl } from '../config.ts';
import { getOk, NetworkError, timeoutSeconds, withAddressHint } from '../net.ts';
import { formatReport } from '../report.ts';
import { readInput } from './files.ts';

async function loadKeys(source: string, seconds: number, fromDefault: boolean): Promise<GatewayKeysDocument> {
  const remote = /^https?:\/\//i.test(source);
  let bytes: Uint8Array;
  try {
    bytes = remote ? (await getOk(source, seconds)).bytes : readInput(source, 'keys');
  } catch (err) {
    throw withAddressHint(err, 'gateway keys document', 'keys', fromDefault, 'the /api/gateway-keys.json of its SITE_URL');
  }
  const parsed = parseStrictJson(bytes);
  if (!parsed.isObject) throw (remote ? new NetworkError(`${source} is not a gateway keys document (JSON object)`) : new UsageError(`--keys ${source} is not a JSON object`));
  const { keys, problems } = readGatewayKeys(parsed.value);
  if (!keys) {
    const message = `${source} is not a gateway keys document: ${problems.join('; ')}`;
    throw remote ? new NetworkError(message) : new UsageError(message);
  }
  return keys;
}

/** The gateway_key_id a receipt file names, when it can be read. */
function receiptKeyId(bytes: Uint8Array): string | undefined {
  const parsed = parseStrictJson(bytes);
  const id = parsed.isObject ? (parsed.value as { gateway_key_id?: unknown }).gateway_key_id : undefined;
  return typeof id === 'string' ? id : undefined;
}

export const receipt: CommandSpec = {
  name: 'receipt',
  summary: "verify a receipt's signature against the gateway's published keys",
  usage: 'receipt --file RECEIPT [--keys URL|FILE] [--submission FILE]',
  options: [
    { name: 'file', type: 'string', value: 'RECEIPT', required: true, description: 'the receipt file written by submit --receipt-out' },
    { name: 'keys', type: 'string', value: 'URL|FILE', description: 'the gateway keys document (default: /api/gateway-keys.json of the site this builder was built for)' },
    { name: 'submission', type: 'string', value: 'FILE', description: 'also check that the receipt is for this submission file' },
    { name: 'timeout', type: 'string', value: 'SECONDS', description: 'give up after this long (default 30)' },
    ...COLOR_OPTIONS,
  ],
  notes: [
    'A receipt verifies when its gateway_key_id is listed (active or retired, not revoked) and its Ed25519 signature over the hex SHA-256 of the RFC 8785 canonical receipt without "signature" verifies with that key.',
    'A valid receipt proves intake only. Final inclusion is proven by readback.',
    'Exit 1 means the receipt does NOT verify against the keys given: its key is not listed or revoked, its signature fails, or it is for another submission. A keys document that lists no key at all (a site that publishes no gateway keys) cannot check any receipt: exit 2, with what to do, never 1.',
  ],
  examples: ['receipt --file receipt.json', 'receipt --file receipt.json --keys gateway-keys.json --submission propagation.json'],
  async run(values) {
    const file = requireStr(values, 'file');
    const bytes = readInput(file);
    const seconds = timeoutSeconds(str(values, 'timeout'));
    const keysSource = str(values, 'keys') ?? defaultKeysUrl();
    const keys = await loadKeys(keysSource, seconds, str(values, 'keys') === undefined);
    if (keys.keys.length === 0) {
      // An empty list is not evidence against the receipt: there is simply nothing here to check it with.
      const named = receiptKeyId(bytes);
      info(
        `${keysSource} lists no gateway keys: the site publishes none, so the receipt${named ? ` (signed with gateway key ${named})` : ''} cannot be checked against this site. ` +
          'This says nothing about whether the receipt is genuine.',
      );
      info(
        "To check it: ask the site's operator to publish the gateway's keys (the gateway writes them to gateway-keys.json in its data directory), " +
          'or give --keys the keys document of the gateway that issued the receipt (the /api/gateway-keys.json of the site it serves, or that file).',
      );
      return EXIT_ERROR;
    }
    const expect: ReceiptExpectation = {};
    const submissionFile = str(values, 'submission');
    if (submissionFile) {
      const sub = validateSubmissionText(readInput(submissionFile, 'submission'));
      if (!sub.submissionSha256) throw new UsageError(`--submission ${submissionFile} is not a submission (no record object)`);
      expect.submissionSha256 = sub.submissionSha256;
      if (sub.recordType) expect.recordType = sub.recordType;
    }
    const result = verifyReceiptText(bytes, keys, expect);
    out(formatReport(file, result.diagnostics, 'pretty', useColor(values)));
    if (!result.valid) {
      info('the receipt does NOT verify: do not rely on it');
      return EXIT_NO;
    }
    info(
      `receipt ${result.receipt!.receipt_id} verified with gateway key ${result.key!.key_id} (${result.key!.status}) from ${/^https?:/i.test(keysSource) ? keysSource : resolve(keysSource)}`,
    );
    info(`it proves intake only (status pending); prove final inclusion with: readback --submission-sha256 ${result.receipt!.submission_sha256}`);
    return EXIT_OK;
  },
};
