/** preflight and submit: the two gateway operations (spec 4), with the HTTP contract of core/record-chain/protocol.ts. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import {
  isErrorEnvelope,
  PREFLIGHT_PATH,
  SUBMISSION_CONTENT_TYPE,
  SUBMISSIONS_PATH,
  SUBMIT_PATH,
  validateSubmissionText,
  type ClaimGateAnswer,
  type ErrorEnvelope,
  type Receipt,
  type ReceiptStatus,
  type WireDiagnostic,
} from '../../core/record-chain/index.ts';
import { COLOR_OPTIONS, EXIT_ERROR, EXIT_NO, EXIT_OK, info, out, requireStr, str, UsageError, useColor, type CommandSpec, type ParsedValues } from '../cli.ts';
import { builderConfig } from '../config.ts';
import { httpUrl, mayHaveBeenSent, NetworkError, request, timeoutSeconds, withAddressHint, type FetchedBody } from '../net.ts';
import { formatReport } from '../report.ts';
import { readInput } from './files.ts';
import { answerLines } from './report.ts';

const GATEWAY_OPTION = {
  name: 'gateway',
  type: 'string',
  value: 'URL',
  description: 'the intake gateway (default: the one this builder was built for)',
} as const;
const TIMEOUT_OPTION = { name: 'timeout', type: 'string', value: 'SECONDS', description: 'give up after this long (default 30)' } as const;

function gatewayBase(values: ParsedValues): string {
  const value = str(values, 'gateway') ?? builderConfig().gatewayUrl;
  return httpUrl(value, 'gateway').href.replace(/\/+$/, '');
}

/** An unreachable gateway: say which address was tried, where it came from, and the --gateway option. */
function unreachable(err: unknown, values: ParsedValues): unknown {
  return withAddressHint(err, 'gateway', 'gateway', str(values, 'gateway') === undefined, 'GATEWAY_URL when it was bundled');
}

function parseBody(body: FetchedBody): unknown {
  try {
    return JSON.parse(Buffer.from(body.bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

function asDiagnostics(list: unknown): Diagnostic[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((d): d is WireDiagnostic => typeof d === 'object' && d !== null && typeof (d as WireDiagnostic).message === 'string')
    .map((d) => ({
      rule: String(d.rule ?? 'gateway'),
      severity: d.severity === 'warning' ? 'warning' : 'error',
      message: d.message,
      hint: String(d.hint ?? ''),
      pointer: String(d.pointer ?? ''),
      line: Number(d.line) || 1,
      column: Number(d.column) || 1,
    }));
}

/** The gateway's Claim Gate answer (preflight, 422), as doctor prints the builder's own: the same lines. */
function printClaimGate(answer: unknown): void {
  const a = answer as Partial<ClaimGateAnswer> | undefined;
  if (!a || typeof a.status !== 'string') return;
  const reasons = Array.isArray(a.reasons) ? a.reasons.map(String) : [];
  out(answerLines({ status: a.status, allowed_protocol_level: String(a.allowed_protocol_level), reasons }, ' (re-evaluated by the gateway)').join('\n') + '\n');
}

/** Reports an error answer of the gateway; returns the exit status it means. */
function reportError(file: string, status: number, body: unknown, headers: Headers, values: ParsedValues): number {
  const envelope = isErrorEnvelope(body) ? (body as ErrorEnvelope).error : undefined;
  const message = envelope?.message ?? `HTTP ${status}`;
  const diagnostics = asDiagnostics(envelope?.diagnostics);
  if (diagnostics.length > 0) out(formatReport(file, diagnostics, 'pretty', useColor(values)));
  printClaimGate(envelope?.claim_gate);
  info(`gateway: HTTP ${status}${envelope?.code ? ` ${envelope.code}` : ''}: ${message}`);
  if (status === 429 || status === 503) {
    const retry = headers.get('retry-after') ?? (envelope?.retry_after_seconds !== undefined ? String(envelope.retry_after_seconds) : undefined);
    info(`try again later${retry ? ` (Retry-After: ${retry} s)` : ''}`);
    return EXIT_ERROR;
  }
  if (status === 410 && envelope?.current_route) {
    info(`this path is retired; current route: ${JSON.stringify(envelope.current_route)}`);
    return EXIT_ERROR;
  }
  // The submission itself was refused (malformed, too large, wrong type, invalid): a "no".
  if (status === 400 || status === 413 || status === 415 || status === 422) return EXIT_NO;
  return EXIT_ERROR;
}

async function post(base: string, path: string, bytes: Buffer, seconds: number): Promise<FetchedBody> {
  return request(base + path, {
    method: 'POST',
    headers: { 'content-type': SUBMISSION_CONTENT_TYPE, accept: 'application/json' },
    body: new Uint8Array(bytes),
    timeoutSeconds: seconds,
  });
}

export const preflight: CommandSpec = {
  name: 'preflight',
  summary: "ask the gateway for its verdict on a submission, without submitting it",
  usage: 'preflight --file FILE [--gateway URL]',
  options: [{ name: 'file', type: 'string', value: 'FILE', required: true, description: 'the submission file' }, GATEWAY_OPTION, TIMEOUT_OPTION, ...COLOR_OPTIONS],
  notes: [`POSTs the file to {gateway}${PREFLIGHT_PATH}. The gateway validates only: it stores nothing and issues no receipt.`],
  examples: ['preflight --file propagation.json', 'preflight --file propagation.json --gateway https://gateway.example.org'],
  async run(values) {
    const file = requireStr(values, 'file');
    const bytes = readInput(file);
    const base = gatewayBase(values);
    let res: FetchedBody;
    try {
      res = await post(base, PREFLIGHT_PATH, bytes, timeoutSeconds(str(values, 'timeout')));
    } catch (err) {
      throw unreachable(err, values);
    }
    const body = parseBody(res);
    if (res.status !== 200) return reportError(file, res.status, body, res.headers, values);
    const result = body as { valid?: unknown; submission_sha256?: unknown; diagnostics?: unknown; claim_gate?: unknown } | undefined;
    if (!result || typeof result.valid !== 'boolean') {
      info(`gateway: unexpected preflight answer from ${base}${PREFLIGHT_PATH}`);
      return EXIT_ERROR;
    }
    out(formatReport(file, asDiagnostics(result.diagnostics), 'pretty', useColor(values)));
    printClaimGate(result.claim_gate);
    info(result.valid ? `gateway preflight: valid (submission_sha256 ${String(result.submission_sha256)}); nothing was stored` : 'gateway preflight: invalid');
    return result.valid ? EXIT_OK : EXIT_NO;
  },
};

/**
 * The answer to a submit was lost after the body may have been sent (a time-out, a reset): ask the gateway whether it
 * took the submission in (GET {gateway}/record-chain/submissions/{submission_sha256}) instead of guessing. Answers the
 * stored receipt, or undefined after saying what to do (the lookup's 404: submit again; anything else: ask later).
 */
async function lookUpLostSubmit(base: string, sha: string, lost: NetworkError, seconds: number): Promise<{ receipt: Receipt; status: string } | undefined> {
  const url = `${base}${SUBMISSIONS_PATH}/${sha}`;
  info(`gateway: the answer to the submit was lost (${lost.message}); asking whether the gateway took it in: GET ${url}`);
  let res: FetchedBody;
  try {
    res = await request(url, { method: 'GET', headers: { accept: 'application/json' }, timeoutSeconds: seconds });
  } catch (err) {
    info(`gateway: the lookup failed too (${(err as Error).message})`);
    info(`whether the submission was taken in is unknown: ask again later (GET ${url}), or submit the same file again (safe: the same content has the same identity)`);
    return undefined;
  }
  const body = parseBody(res);
  if (res.status === 404) {
    info('gateway: not taken in (HTTP 404): submit the same file again (safe: the same content has the same identity)');
    return undefined;
  }
  const found = body as Partial<ReceiptStatus> | undefined;
  if (res.status !== 200 || !found?.receipt || typeof found.receipt !== 'object') {
    const envelope = isErrorEnvelope(body) ? (body as ErrorEnvelope).error : undefined;
    info(`gateway: the lookup answered HTTP ${res.status}${envelope?.code ? ` ${envelope.code}: ${envelope.message}` : ''}`);
    info(`whether the submission was taken in is unknown: ask again later (GET ${url}), or submit the same file again (safe: the same content has the same identity)`);
    return undefined;
  }
  return { receipt: found.receipt, status: String(found.status ?? 'pending') };
}

export const submit: CommandSpec = {
  name: 'submit',
  summary: 'submit a submission to the intake gateway and keep its receipt (intake only)',
  usage: 'submit --file FILE [--gateway URL] [--receipt-out FILE]',
  options: [
    { name: 'file', type: 'string', value: 'FILE', required: true, description: 'the submission file' },
    GATEWAY_OPTION,
    { name: 'receipt-out', type: 'string', value: 'FILE', description: 'write the signed receipt to FILE (default: standard output)' },
    TIMEOUT_OPTION,
    ...COLOR_OPTIONS,
  ],
  notes: [
    'The file is checked locally first (as doctor does); an invalid submission is not sent.',
    `POSTs the file to {gateway}${SUBMIT_PATH}. A retry of the same submission returns the original receipt.`,
    `When the answer is lost after sending (a time-out, a reset connection), submit asks {gateway}${SUBMISSIONS_PATH}/{submission_sha256} whether the gateway took the submission in: its receipt if so (exit 0), else it says to submit again (exit 2).`,
    'The receipt is intake only: not attestation, not inclusion. Verify it with "receipt --file", and prove final inclusion later with "readback".',
  ],
  examples: ['submit --file propagation.json --receipt-out receipt.json'],
  async run(values) {
    const file = requireStr(values, 'file');
    const bytes = readInput(file);
    const local = validateSubmissionText(bytes);
    if (!local.valid) {
      out(formatReport(file, local.diagnostics, 'pretty', useColor(values)));
      info('not submitted: the submission is invalid (see above)');
      return EXIT_NO;
    }
    const base = gatewayBase(values);
    const seconds = timeoutSeconds(str(values, 'timeout'));
    let result: { receipt?: Receipt; duplicate?: unknown } | undefined;
    let status: number;
    /** Set when the receipt came from the lookup after a lost answer: its review state. */
    let recovered: string | undefined;
    try {
      const res = await post(base, SUBMIT_PATH, bytes, seconds);
      const body = parseBody(res);
      if (res.status !== 200 && res.status !== 202) return reportError(file, res.status, body, res.headers, values);
      result = body as typeof result;
      status = res.status;
    } catch (err) {
      if (!mayHaveBeenSent(err)) throw unreachable(err, values);
      const found = await lookUpLostSubmit(base, local.submissionSha256!, err as NetworkError, seconds);
      if (!found) return EXIT_ERROR;
      result = { receipt: found.receipt, duplicate: true };
      status = 200;
      recovered = found.status;
    }
    const receipt = result?.receipt;
    if (!receipt || typeof receipt !== 'object') {
      info(`gateway: HTTP ${status} without a receipt`);
      return EXIT_ERROR;
    }
    if (receipt.submission_sha256 !== local.submissionSha256 || receipt.record_type !== local.recordType) {
      info(`gateway: the receipt is for submission ${String(receipt.submission_sha256)}, not this one (${local.submissionSha256}): not trusted`);
      return EXIT_ERROR;
    }
    const receiptText = JSON.stringify(receipt, null, 2) + '\n';
    const receiptOut = str(values, 'receipt-out');
    if (receiptOut) {
      try {
        writeFileSync(receiptOut, receiptText);
      } catch (err) {
        throw new UsageError(`cannot write --receipt-out ${receiptOut}: ${(err as Error).message}`);
      }
      info(`wrote the receipt to ${resolve(receiptOut)}`);
    } else {
      out(receiptText);
    }
    const how =
      recovered !== undefined
        ? `the gateway had taken it in: this is its receipt (review status now ${recovered}); do not submit again`
        : result?.duplicate === true
          ? 'already received earlier: this is the original receipt'
          : 'received';
    info(`${how} (receipt ${String(receipt.receipt_id)}, signed as status pending, intake only: not attestation, not inclusion)`);
    info(`verify it: receipt --file ${receiptOut ?? 'RECEIPT'}; prove inclusion after the archive is next published: readback --submission-sha256 ${local.submissionSha256}`);
    return EXIT_OK;
  },
};
