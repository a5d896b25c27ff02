/**
 * The intake gateway (spec 4, issue 4): an HTTP service on Node's own `node:http` (no framework: five routes, and
 * the body limits must be enforced while streaming, which is plain to do here). The HTTP contract is the core's
 * (src/core/record-chain/protocol.ts); judging is the core's validateSubmissionText; receipts are the core's
 * buildReceipt + signReceipt. The gateway never decides inclusion: receipts say intake only.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { siteConfig, type SiteConfig } from '../core/config.ts';
import {
  buildReceipt,
  checkBodySize,
  claimGateAnswer,
  currentRoute,
  GATEWAY_ERRORS,
  GATEWAY_KEYS_PATH,
  HEALTH_PATH,
  PREFLIGHT_PATH,
  READY_PATH,
  RECEIPTS_PATH,
  recordChainLimits,
  signReceipt,
  SUBMISSION_SHA256_PATTERN,
  SUBMISSIONS_PATH,
  SUBMIT_PATH,
  toWireDiagnostics,
  validateSubmissionText,
  verifyReceipt,
  type ErrorEnvelope,
  type GatewayErrorCode,
  type PreflightResult,
  type ReadyStatus,
  type RecordChainLimits,
  type ReceiptStatus,
  type SubmitResult,
  type WireDiagnostic,
} from '../core/record-chain/index.ts';
import { PUBLIC_INDEX_PATH } from '../core/publish/public-index.ts';
import { recordIdOf } from '../core/archive/paths.ts';
import type { ClientAddressSettings } from './client-address.ts';
import { DEFAULT_MAX_IN_FLIGHT } from './config.ts';
import type { GatewayKeys } from './keys.ts';
import { gatewayMcp, MCP_INNER_CALL_HEADER, MCP_PATH, rebindingProblem } from './mcp.ts';
import { jsonLogger, type Logger } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';
import { clientOf, noteError, requestIdOf, requestObserver } from './observe.ts';
import { pathOf } from './request-path.ts';
import { RateLimiter, type RateLimitSettings } from './rate-limit.ts';
import type { StoredSubmission, SubmissionStore } from './store.ts';
import { ArchiveIndex, IndexUnavailable } from './archive-index.ts';
import { archiveChecks, keyTakenFinding, type ArchiveCheckResult } from './archive-checks.ts';

export { ARCHIVE_RULES } from './archive-checks.ts';
import { guardianKeyOf } from '../core/guardian/keys.ts';
import { locateFindings } from '../core/diagnostics/locate.ts';
import type { Submission } from '../core/record-chain/index.ts';

export interface GatewayOptions {
  /**
   * The store, or its opening (PostgreSQL migrations may wait for another instance): until it resolves, routes that
   * need the store answer 503 storage_unavailable and /readyz 503 not_ready; if it rejects, they keep doing so.
   */
  store: SubmissionStore | Promise<SubmissionStore>;
  keys: GatewayKeys;
  /** false turns rate limiting off. */
  rateLimit: RateLimitSettings | false;
  site?: SiteConfig;
  limits?: RecordChainLimits;
  /** Seconds a client is asked to wait after a storage failure. */
  storageRetryAfterSeconds?: number;
  /**
   * Requests handled at once (reading the body, judging, storing); one more is answered 503 `overloaded` with
   * Retry-After at once, its body unread. Bounds the memory of bodies in flight (× max_body_bytes) and the queue
   * behind the one event loop, so an overload is shed instead of waited out until clients time out.
   */
  maxInFlight?: number;
  /** Trusted reverse proxies and the header they set (client-address.ts); undefined: the peer is the client. */
  clientAddress?: ClientAddressSettings;
  /** One JSON line per request (log.ts); default: stdout. */
  logger?: Logger;
  /** Request metrics; pass the store through `metrics.instrument` for the store metrics. */
  metrics?: GatewayMetrics;
  /** Serve `metrics` at this path on the gateway's own port (else only a separate listener serves them). */
  metricsPath?: string;
  /** /readyz: how long the store's ping may take before it counts as not answering (default 1000 ms). */
  readinessTimeoutMs?: number;
  /** /readyz: how long one readiness verdict is reused, so that a probe storm pings the store once (default 1000 ms). */
  readinessCacheMs?: number;
  /** Seconds a client is asked to wait after /readyz answers 503 (default 5). */
  readinessRetryAfterSeconds?: number;
  /** The archive's MCP server at /mcp (src/gateway/mcp.ts); undefined: off (404, as any unknown path). */
  mcp?: { allowedHosts: readonly string[]; version: string };
  /**
   * The public index the guardian and classification checks read (ECHO_GATEWAY_INDEX_URL; default: the site's
   * /api/index.json, kept for a minute). docs/guardians.md section 2.
   */
  archiveIndex?: ArchiveIndex;
  /** Seconds a client is asked to wait when the public index cannot be read (default 30). */
  indexRetryAfterSeconds?: number;
}

type ErrorExtra = Omit<ErrorEnvelope['error'], 'status' | 'code' | 'message'>;

class HttpError extends Error {
  readonly status: number;
  /** Only the protocol's codes (GATEWAY_ERRORS), which the published OpenAPI description lists. */
  readonly code: GatewayErrorCode;
  readonly extra: ErrorExtra;
  readonly headers: Record<string, string>;
  constructor(code: GatewayErrorCode, message: string, extra: ErrorExtra = {}, headers: Record<string, string> = {}) {
    super(message);
    // The status is the protocol's for the code (GATEWAY_ERRORS), as the published description says.
    this.status = GATEWAY_ERRORS[code].status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body, null, 2) + '\n';
  res.writeHead(status, { ...JSON_HEADERS, ...headers, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function sendError(res: ServerResponse, err: HttpError): void {
  noteError(res, err.code);
  const requestId = requestIdOf(res);
  const envelope: ErrorEnvelope = { error: { status: err.status, code: err.code, message: err.message, ...err.extra, ...(requestId ? { request_id: requestId } : {}) } };
  send(res, err.status, envelope, err.headers);
}

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return !charset || charset.replace(/^charset=/, '').replace(/"/g, '') === 'utf-8';
}

/** Reads the body, stopping (413) as soon as it passes the limit, whether or not Content-Length announced it. */
function readBody(req: IncomingMessage, limits: RecordChainLimits): Promise<Buffer> {
  const tooLarge = (size: number): HttpError => {
    const finding = checkBodySize(size, limits)!;
    return new HttpError('body_too_large', finding.message, { diagnostics: toWireDiagnostics([{ ...finding, line: 1, column: 1 }]) }, { connection: 'close' });
  };
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const n = Number(declared);
    if (Number.isFinite(n) && checkBodySize(n, limits)) return Promise.reject(tooLarge(n));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (checkBodySize(size, limits)) {
        done = true;
        req.pause();
        reject(tooLarge(size));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(new HttpError('body_unreadable', `the request body could not be read: ${err.message}`));
    });
  });
}

/** Behind trusted proxies, the real client (observe.ts, client-address.ts); else the peer. */
function clientAddress(req: IncomingMessage): string {
  return clientOf(req) ?? req.socket.remoteAddress ?? 'unknown';
}

const RECEIPT_ID = /^rcpt_[0-9a-f]{32}$/;

/** A path segment, percent-decoded when it can be (else as sent). */
function segmentAfter(path: string, prefix: string): string {
  const raw = path.slice(prefix.length + 1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/** What the submissions route answers for a hash it never took in (plain words: the agent's next step). */
export const SUBMISSION_NOT_FOUND_MESSAGE =
  'no submission with that submission_sha256 was taken in here; submit it (submitting again is safe: the same content has the same identity)';

/** GET /record-chain/receipts/{id} and /record-chain/submissions/{sha}: the signed receipt as issued, its state beside it. */
function receiptStatusOf(stored: StoredSubmission): ReceiptStatus {
  return {
    receipt: stored.receipt,
    status: stored.status,
    ...(stored.reason !== undefined ? { reason: stored.reason } : {}),
    ...(stored.status === 'accepted' && stored.archivePath !== undefined ? { archive_id: recordIdOf(stored.archivePath) } : {}),
    ...(stored.decidedAt !== undefined ? { decided_at: stored.decidedAt } : {}),
  };
}

export interface Gateway {
  server: Server;
  /** Resolves with the bound port. */
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const site = options.site ?? siteConfig();
  const limits = options.limits ?? recordChainLimits();
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const storageRetry = options.storageRetryAfterSeconds ?? 30;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  let inFlight = 0;
  const route = currentRoute(site);
  const indexUrl = `${site.baseUrl}${PUBLIC_INDEX_PATH}`;
  const logger = options.logger ?? jsonLogger();
  const archiveIndex = options.archiveIndex ?? new ArchiveIndex(indexUrl);
  const indexRetry = options.indexRetryAfterSeconds ?? 30;
  const observer = requestObserver({ ...options, logger });
  // The gateway's own address once listening: the MCP tools preflight, submit and receipt_status call it.
  let selfUrl = site.gatewayUrl;
  // What the MCP tools' calls to this gateway carry, so that they are not charged again (src/gateway/mcp.ts).
  const innerCallToken = randomBytes(32).toString('base64url');
  const innerCallBytes = Buffer.from(innerCallToken);
  const mcp = options.mcp ? gatewayMcp({ siteUrl: site.baseUrl, gatewayUrl: () => selfUrl, version: options.mcp.version, innerCallToken }) : undefined;
  // Worked out once, not per /mcp request: the Host and Origin names answered besides loopback ones, and the largest
  // JSON-RPC body read (a submission inside a tool call, with room for the envelope).
  const mcpAllowedHosts = options.mcp
    ? [...options.mcp.allowedHosts, ...[site.baseUrl, site.gatewayUrl].map((u) => new URL(u).hostname.toLowerCase())]
    : [];
  const mcpLimits = { ...limits, max_body_bytes: limits.max_body_bytes * 2 + 65_536 };

  // The store, once open (options.store may be its opening).
  let openStore: SubmissionStore | undefined;
  let openFailure: string | undefined;
  if (isPromise(options.store)) {
    options.store.then(
      (s) => {
        openStore = s;
      },
      (err: unknown) => {
        openFailure = (err as Error).message;
      },
    );
  } else {
    openStore = options.store;
  }
  const storeNotOpen = () => (openFailure ? `the store could not be opened: ${openFailure}` : 'the store is not open yet');

  const storageError = (err: unknown): HttpError =>
    new HttpError(
      'storage_unavailable',
      `the submission store is unavailable; nothing was stored (${(err as Error).message})`,
      { retry_after_seconds: storageRetry },
      { 'retry-after': String(storageRetry) },
    );

  /** The open store, or 503 storage_unavailable (nothing is stored before the store is open). */
  function store(): SubmissionStore {
    if (!openStore) throw storageError(new Error(storeNotOpen()));
    return openStore;
  }

  // Readiness (/readyz): the signing key signs a receipt its own keys document verifies, and the store answers a
  // ping within readinessTimeout. One verdict is reused for readinessCache ms and one check runs at a time, so a
  // storm of probes asks the database at most about once a second; a ping that outlives the timeout is not
  // repeated until it settles (the pool's own connect and statement timeouts bound it).
  const readinessTimeout = options.readinessTimeoutMs ?? 1000;
  const readinessCache = options.readinessCacheMs ?? 1000;
  const readinessRetry = options.readinessRetryAfterSeconds ?? 5;
  let verdict: { at: number; problem: string | undefined } | undefined;
  let checking: Promise<string | undefined> | undefined;
  let pinging: Promise<string | undefined> | undefined;

  function keyProblem(): string | undefined {
    try {
      const listed = options.keys.document.keys.find((k) => k.key_id === options.keys.keyId);
      if (listed?.status !== 'active') return `the signing key ${options.keys.keyId} is not listed as active in the gateway's keys document`;
      const probe = signReceipt(
        buildReceipt({ submissionSha256: '0'.repeat(64), recordType: 'echo', indexUrl, gatewayKeyId: options.keys.keyId }),
        options.keys.privateKey,
      );
      const checked = verifyReceipt(probe, options.keys.document);
      if (!checked.valid) return `the signing key's receipts do not verify against the gateway's keys document (${checked.findings.map((f) => f.rule).join(', ')})`;
      return undefined;
    } catch (err) {
      return `the signing key cannot sign: ${(err as Error).message}`;
    }
  }

  async function storeProblem(): Promise<string | undefined> {
    if (!openStore) return storeNotOpen();
    if (!pinging) {
      const ping = openStore.ping().then(
        () => undefined,
        (err: unknown) => `the store does not answer: ${(err as Error).message}`,
      );
      pinging = ping;
      void ping.finally(() => {
        if (pinging === ping) pinging = undefined;
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the store did not answer within ${readinessTimeout} ms`), readinessTimeout);
    });
    try {
      return await Promise.race([pinging, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  function readinessProblem(): Promise<string | undefined> {
    if (verdict && Date.now() - verdict.at < readinessCache) return Promise.resolve(verdict.problem);
    if (!checking) {
      const check = (async () => {
        const problem = keyProblem() ?? (await storeProblem());
        verdict = { at: Date.now(), problem };
        return problem;
      })();
      checking = check;
      void check.finally(() => {
        if (checking === check) checking = undefined;
      });
    }
    return checking;
  }

  function rateLimit(req: IncomingMessage): void {
    if (!limiter || isInnerCall(req)) return;
    const wait = limiter.take(clientAddress(req));
    if (wait > 0) {
      throw new HttpError('rate_limited', `too many requests; try again in ${wait} s`, { retry_after_seconds: wait }, { 'retry-after': String(wait) });
    }
  }

  /** A call of one of this gateway's own MCP tools (its /mcp request was charged already). */
  function isInnerCall(req: IncomingMessage): boolean {
    const sent = req.headers[MCP_INNER_CALL_HEADER];
    if (mcp === undefined || typeof sent !== 'string') return false;
    const a = Buffer.from(sent);
    return a.length === innerCallBytes.length && timingSafeEqual(a, innerCallBytes);
  }

  /** Content type, size, strict JSON: what both POST routes share. */
  async function judge(req: IncomingMessage) {
    if (!isJsonContentType(req.headers['content-type'])) {
      throw new HttpError('unsupported_media_type', `send the submission as ${'application/json'} (UTF-8); found ${req.headers['content-type'] ?? 'no Content-Type'}`);
    }
    const body = await readBody(req, limits);
    const result = validateSubmissionText(body, { limits });
    const diagnostics = toWireDiagnostics(result.diagnostics);
    const malformed = diagnostics.filter((d) => d.rule.startsWith('json/') && d.rule !== 'json/not-object');
    if (malformed.length > 0) {
      throw new HttpError('invalid_json', 'the body is not strict JSON (UTF-8, no byte-order mark, no duplicate keys)', { diagnostics: malformed });
    }
    return { body, result, diagnostics };
  }

  /** archiveChecks (archive-checks.ts) with this gateway's store and index: an unreadable index answers 503. */
  async function archiveChecksHere(submission: Submission, submissionSha256: string): Promise<ArchiveCheckResult> {
    try {
      return await archiveChecks(submission, submissionSha256, {
        findGuardianApplication: async (keySha256) => {
          try {
            return await store().findGuardianApplication(keySha256);
          } catch (err) {
            throw storageError(err);
          }
        },
        archiveIndex,
      });
    } catch (err) {
      if (!(err instanceof IndexUnavailable)) throw err;
      throw new HttpError(
        'archive_index_unavailable',
        `the public index could not be read to check this ${submission.record_type}; nothing was stored (${err.message})`,
        { retry_after_seconds: indexRetry },
        { 'retry-after': String(indexRetry) },
      );
    }
  }

  function keyTakenError(diagnostics: WireDiagnostic[], taken: StoredSubmission): HttpError {
    return new HttpError(
      'guardian_key_taken',
      `this key already has a guardian application at this gateway (submission_sha256 ${taken.submissionSha256}, ${taken.status}); one guardian id per key: nothing was stored`,
      { diagnostics, existing_submission_sha256: taken.submissionSha256 },
    );
  }

  async function preflight(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const judged = await judge(req);
    const { result } = judged;
    let diagnostics = judged.diagnostics;
    let valid = result.valid;
    if (result.valid && result.submission && result.submissionSha256) {
      const checked = await archiveChecksHere(result.submission, result.submissionSha256);
      if (checked.findings.length > 0) {
        valid = false;
        diagnostics = [...diagnostics, ...toWireDiagnostics(locateFindings(checked.findings, judged.body.toString('utf8')))];
      }
    }
    const answer: PreflightResult = {
      valid,
      submission_sha256: result.submissionSha256 ?? null,
      record_type: result.recordType ?? null,
      diagnostics,
      ...(result.claimGate ? { claim_gate: claimGateAnswer(result.claimGate) } : {}),
      intake_only: true,
    };
    send(res, 200, answer);
  }

  async function submit(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { body, result, diagnostics } = await judge(req);
    if (!result.valid || !result.submissionSha256 || !result.recordType) {
      throw new HttpError('invalid_submission', 'the submission is invalid; nothing was stored (see diagnostics)', {
        diagnostics: diagnostics as WireDiagnostic[],
        ...(result.claimGate ? { claim_gate: claimGateAnswer(result.claimGate) } : {}),
      });
    }
    let outcome: { stored: StoredSubmission; duplicate: boolean };
    try {
      const existing = await store().get(result.submissionSha256);
      if (existing) {
        outcome = { stored: existing, duplicate: true };
      } else {
        const checked = await archiveChecksHere(result.submission!, result.submissionSha256);
        const located = () => toWireDiagnostics(locateFindings(checked.findings, body.toString('utf8')));
        if (checked.taken) throw keyTakenError(located(), checked.taken);
        if (checked.findings.length > 0) {
          throw new HttpError('invalid_submission', 'the submission is invalid; nothing was stored (see diagnostics)', { diagnostics: located() });
        }
        const receipt = signReceipt(
          buildReceipt({ submissionSha256: result.submissionSha256, recordType: result.recordType, indexUrl, gatewayKeyId: options.keys.keyId }),
          options.keys.privateKey,
        );
        const put = await store().putIfAbsent({
          receiptId: receipt.receipt_id,
          submissionSha256: receipt.submission_sha256,
          recordType: receipt.record_type,
          receivedAt: receipt.received_at,
          receipt,
          submissionText: body.toString('utf8'),
          ...(checked.guardianKeySha256 !== undefined ? { guardianKeySha256: checked.guardianKeySha256 } : {}),
        });
        if (put.guardianKeyTaken) {
          // Another instance (or request) stored an application for this key between the check and the insert.
          const taken = put.stored;
          const key = guardianKeyOf(result.submission!.proof.public_key)!;
          throw keyTakenError(toWireDiagnostics(locateFindings([keyTakenFinding(key.guardianId, key.sha256, taken)], body.toString('utf8'))), taken);
        }
        outcome = put;
      }
    } catch (err) {
      throw err instanceof HttpError ? err : storageError(err);
    }
    const answer: SubmitResult = { receipt: outcome.stored.receipt, duplicate: outcome.duplicate };
    send(res, outcome.duplicate ? 200 : 202, answer, { location: `${RECEIPTS_PATH}/${outcome.stored.receiptId}` });
  }

  /** A store read: its failure is 503 storage_unavailable. */
  async function read(fn: (s: SubmissionStore) => Promise<StoredSubmission | undefined>): Promise<StoredSubmission | undefined> {
    const s = store();
    try {
      return await fn(s);
    } catch (err) {
      throw storageError(err);
    }
  }

  async function receiptStatus(id: string, res: ServerResponse): Promise<void> {
    if (!RECEIPT_ID.test(id)) throw new HttpError('not_found', `no receipt ${JSON.stringify(id)}: receipt ids look like rcpt_ and 32 hex digits`);
    const stored = await read((s) => s.get(id));
    if (!stored || stored.receiptId !== id) throw new HttpError('not_found', `no receipt ${id} at this gateway`);
    send(res, 200, receiptStatusOf(stored));
  }

  /** The receipt route's answer, found by the submission's identity: an agent whose submit timed out asks here. */
  async function submissionStatus(sha: string, res: ServerResponse): Promise<void> {
    if (!SUBMISSION_SHA256_PATTERN.test(sha)) {
      const shown = sha.length > 80 ? `${JSON.stringify(sha.slice(0, 80))}…` : JSON.stringify(sha);
      throw new HttpError('invalid_submission_sha256', `${shown} is not a submission_sha256: send its 64 lowercase hex characters (0-9, a-f), as preflight and submit print it`);
    }
    const stored = await read((s) => s.getBySubmissionSha256(sha));
    if (!stored || stored.submissionSha256 !== sha) throw new HttpError('not_found', SUBMISSION_NOT_FOUND_MESSAGE);
    send(res, 200, receiptStatusOf(stored));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req.url ?? '/');
    const method = req.method ?? 'GET';
    const allow = (methods: string) => {
      if (!methods.split(', ').includes(method)) throw new HttpError('method_not_allowed', `${path} answers ${methods}`, {}, { allow: methods });
    };

    if (path === HEALTH_PATH) {
      allow('GET, HEAD');
      await read((s) => s.get('rcpt_00000000000000000000000000000000'));
      return send(res, 200, { status: 'ok', gateway_key_id: options.keys.keyId, intake_only: true });
    }
    if (path === READY_PATH) {
      allow('GET, HEAD');
      const problem = await readinessProblem();
      if (problem) {
        throw new HttpError('not_ready', `the gateway is not ready: ${problem}`, { retry_after_seconds: readinessRetry }, { 'retry-after': String(readinessRetry) });
      }
      const ready: ReadyStatus = { status: 'ready', gateway_key_id: options.keys.keyId, intake_only: true };
      return send(res, 200, ready);
    }
    if (options.metrics && options.metricsPath && path === options.metricsPath) {
      allow('GET, HEAD');
      const text = await options.metrics.text();
      res.writeHead(200, { 'content-type': options.metrics.contentType, 'cache-control': 'no-store' });
      return void res.end(method === 'HEAD' ? undefined : text);
    }
    if (path === GATEWAY_KEYS_PATH) {
      allow('GET, HEAD');
      return send(res, 200, options.keys.document, { 'cache-control': 'public, max-age=300' });
    }
    if (path === '/agent-submit' || path === '/gateway' || path.startsWith('/gateway/') || path === '/api/agent-submit-gateway.json') {
      throw new HttpError('retired_path', `${path} is retired (historical only); submit through the record-chain route`, { current_route: route });
    }
    if (path === PREFLIGHT_PATH || path === SUBMIT_PATH) {
      allow('POST');
      rateLimit(req);
      return path === PREFLIGHT_PATH ? preflight(req, res) : submit(req, res);
    }
    if (mcp && path === MCP_PATH) {
      allow('POST, GET, DELETE');
      const refused = rebindingProblem(req, mcpAllowedHosts);
      if (refused) throw new HttpError('forbidden_origin', refused);
      rateLimit(req);
      if (method !== 'POST') throw new HttpError('method_not_allowed', `${MCP_PATH} is stateless: POST one JSON-RPC message per request`, {}, { allow: 'POST' });
      if (!isJsonContentType(req.headers['content-type'])) throw new HttpError('unsupported_media_type', `send MCP messages as application/json; found ${req.headers['content-type'] ?? 'no Content-Type'}`);
      const body = await readBody(req, mcpLimits);
      let message: unknown;
      try {
        message = JSON.parse(body.toString('utf8'));
      } catch {
        throw new HttpError('invalid_json', 'the body is not JSON');
      }
      return mcp(req, res, message);
    }
    if (path.startsWith(RECEIPTS_PATH + '/')) {
      allow('GET, HEAD');
      rateLimit(req);
      return receiptStatus(segmentAfter(path, RECEIPTS_PATH), res);
    }
    if (path.startsWith(SUBMISSIONS_PATH + '/')) {
      allow('GET, HEAD');
      rateLimit(req);
      return submissionStatus(segmentAfter(path, SUBMISSIONS_PATH), res);
    }
    throw new HttpError(
      'not_found',
      `no route ${path}; the record-chain routes are ${PREFLIGHT_PATH}, ${SUBMIT_PATH}, ${RECEIPTS_PATH}/{receipt_id} and ${SUBMISSIONS_PATH}/{submission_sha256}`,
    );
  }

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    observer.begin(req, res);
    if (inFlight >= maxInFlight) {
      // Shed before any work; Node discards the unread body, so the connection stays usable.
      return sendError(
        res,
        new HttpError('overloaded', 'the gateway is at capacity; nothing was read or stored: retry later', { retry_after_seconds: 1 }, { 'retry-after': '1' }),
      );
    }
    inFlight++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      inFlight--;
    };
    res.once('finish', release);
    res.once('close', release);
    handle(req, res).catch((err: unknown) => {
      const httpError =
        err instanceof HttpError ? err : new HttpError('internal_error', 'the gateway failed on this request; nothing was stored');
      if (!(err instanceof HttpError)) logger.log('error', 'unexpected error', { request_id: requestIdOf(res), error: String((err as Error)?.stack ?? err) });
      sendError(res, httpError);
      if (httpError.status === 413) {
        // Stop reading an oversized body: answer, then close the connection.
        res.on('finish', () => req.socket.destroy());
      }
    });
  });

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          const bound = typeof address === 'object' && address ? address.port : port;
          const loopback = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
          selfUrl = `http://${loopback}:${bound}`;
          resolve(bound);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
