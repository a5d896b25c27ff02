import { resolve } from 'node:path';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { readGatewayKeys, validateSubmissionText, verifyReceiptText, type GatewayKeysDocument, type ReceiptExpectation } from '../../core/record-chain/index.ts';
import { COLOR_OPTIONS, EXIT_NO, EXIT_OK, info, out, requireStr, str, UsageError, useColor, type CommandSpec } from '../cli.ts';
import { defaultKeysUrl } from '../config.ts';
import { getOk, NetworkError, timeoutSeconds } from '../net.ts';
import { formatReport } from '../report.ts';
import { readInput } from './files.ts';

async function loadKeys(source: string, seconds: number): Promise<GatewayKeysDocument> {
  const remote = /^https?:\/\//i.test(source);
  const bytes = remote ? (await getOk(source, seconds)).bytes : readInput(source, 'keys');
  const parsed = parseStrictJson(bytes);
  if (!parsed.isObject) throw (remote ? new NetworkError(`${source} is not a gateway keys document (JSON object)`) : new UsageError(`--keys ${source} is not a JSON object`));
  const { keys, problems } = readGatewayKeys(parsed.value);
  if (!keys) {
    const message = `${source} is not a gateway keys document: ${problems.join('; ')}`;
    throw remote ? new NetworkError(message) : new UsageError(message);
  }
  return keys;
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
  ],
  examples: ['receipt --file receipt.json', 'receipt --file receipt.json --keys gateway-keys.json --submission propagation.json'],
  async run(values) {
    const file = requireStr(values, 'file');
    const bytes = readInput(file);
    const seconds = timeoutSeconds(str(values, 'timeout'));
    const keysSource = str(values, 'keys') ?? defaultKeysUrl();
    const keys = await loadKeys(keysSource, seconds);
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
