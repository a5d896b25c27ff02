/**
 * The gateway's HTTP contract as the builder reads it (spec 4; issue 4). The gateway implements these shapes; the
 * builder's preflight/submit/receipt commands rely on them. Paths are relative to {gateway_url}.
 *
 *   POST /record-chain/preflight  body: the submission JSON (Content-Type application/json)
 *        200 PreflightResult (valid or not: preflight never writes)   or 4xx ErrorEnvelope
 *   POST /record-chain/submit     body: the submission JSON
 *        202 SubmitResult { duplicate: false }   new intake
 *        200 SubmitResult { duplicate: true }    the same submission_sha256 was received before: the original receipt
 *        422 ErrorEnvelope with diagnostics      the submission is invalid (with claim_gate: the Claim Gate's
 *                                                re-evaluation, when the record carries an evidence_input)
 *   GET  /record-chain/receipts/{receipt_id}   200 ReceiptStatus
 *   GET  /record-chain/submissions/{submission_sha256}   200 ReceiptStatus: the same answer, found by the submission's
 *        identity (an agent whose submit timed out learns whether it was taken in); 404 not_found when it was not;
 *        400 invalid_submission_sha256 when the segment is not 64 lowercase hex characters
 *   GET  /healthz   200 {status: ok} while the process serves and its store answers a read (503 storage_unavailable)
 *   GET  /readyz    200 ReadyStatus once the store and the signing key are usable; 503 not_ready before and while not
 *   Other errors: 400 malformed JSON, 413 body too large, 415 wrong content type, 429 (Retry-After), 503, and 410 for
 *   the retired paths; every error body is an ErrorEnvelope.
 */
import { toWireDiagnostic, type Diagnostic, type WireDiagnostic } from '../diagnostics/diagnostic.ts';
import type { SubmissionGateJudgement } from './claim-gate.ts';
import type { Receipt } from './receipt.ts';
import type { RecordType } from './types.ts';

export const PREFLIGHT_PATH = '/record-chain/preflight';
export const SUBMIT_PATH = '/record-chain/submit';
export const RECEIPTS_PATH = '/record-chain/receipts';
/** GET {SUBMISSIONS_PATH}/{submission_sha256}: the receipt of a submission taken in, found by its identity. */
export const SUBMISSIONS_PATH = '/record-chain/submissions';
/** A submission_sha256 as the path segment of SUBMISSIONS_PATH takes it: 64 lowercase hex characters. */
export const SUBMISSION_SHA256_PATTERN = /^[0-9a-f]{64}$/;
/** Spec 2.3 retired_paths and spec 4: historical only; the gateway answers 410 with the current route. */
export const RETIRED_PATHS = ['/agent-submit', '/gateway/*', '/gateway/preflight', '/api/agent-submit-gateway.json'] as const;
export const SUBMISSION_CONTENT_TYPE = 'application/json';

export const HEALTH_PATH = '/healthz';
/** Readiness: 200 once the store and the signing key are usable, 503 not_ready before and while they are not. */
export const READY_PATH = '/readyz';

/**
 * Every error code the gateway answers, with its HTTP status, what it means and what a client should do. The
 * gateway can only throw these codes (its HttpError takes a GatewayErrorCode), and the published OpenAPI description
 * (openapi.ts) lists them from here.
 */
export const GATEWAY_ERRORS = {
  invalid_json: { status: 400, meaning: 'the body is not strict JSON (UTF-8, no byte-order mark, no duplicate keys); see diagnostics', retry: 'fix the body; do not resend it unchanged' },
  invalid_submission_sha256: { status: 400, meaning: 'the path segment is not a submission_sha256 (64 lowercase hex characters, 0-9 a-f)', retry: 'send the submission_sha256 that preflight, submit or the builder printed' },
  body_unreadable: { status: 400, meaning: 'the request body could not be read (the connection broke while sending)', retry: 'send the request again' },
  forbidden_origin: { status: 403, meaning: 'the Host or Origin of a request to /mcp is not one the gateway answers (DNS rebinding protection)', retry: 'call the gateway by its public name or a loopback address, from an allowed origin' },
  not_found: { status: 404, meaning: 'no such route, or no such receipt or submission at this gateway', retry: 'check the path or the receipt id; a submission not taken in can be submitted (again: it is idempotent)' },
  method_not_allowed: { status: 405, meaning: 'the route does not answer this method; the Allow header lists those it does', retry: 'use a method from Allow' },
  retired_path: { status: 410, meaning: 'a retired, historical-only route; current_route names the current one', retry: 'use current_route' },
  body_too_large: { status: 413, meaning: 'the body is larger than max_body_bytes; the connection is closed', retry: 'shorten the submission; do not resend it unchanged' },
  unsupported_media_type: { status: 415, meaning: 'the Content-Type is not application/json (charset UTF-8 if given)', retry: 'send Content-Type: application/json' },
  guardian_key_taken: {
    status: 409,
    meaning: 'a guardian application for this key is already stored at this gateway (pending or accepted): one guardian id per key; existing_submission_sha256 names that submission (rule chain/guardian-key-taken)',
    retry: 'do not apply again with this key: follow the existing application (GET /record-chain/submissions/{existing_submission_sha256}), or apply with another key',
  },
  invalid_submission: { status: 422, meaning: 'the submission is invalid; nothing was stored; see diagnostics (the builder\'s doctor gives the same verdict)', retry: 'fix what the diagnostics name, preflight, then submit' },
  rate_limited: { status: 429, meaning: 'too many requests from this client, or in total', retry: 'wait Retry-After seconds (also retry_after_seconds), then send again' },
  internal_error: { status: 500, meaning: 'a bug in the gateway; nothing was stored (bad input is never a 500)', retry: 'send again later; report the request_id' },
  storage_unavailable: { status: 503, meaning: 'the submission store did not answer; nothing was stored and no receipt issued', retry: 'wait Retry-After seconds, then send the same submission again (it is idempotent)' },
  not_ready: { status: 503, meaning: 'the gateway is not ready: its store or its signing key is not usable (yet); nothing was read or stored', retry: 'wait Retry-After seconds, then ask again (a load balancer sends no traffic meanwhile)' },
  archive_index_unavailable: {
    status: 503,
    meaning: 'the gateway could not read the public index it checks guardian retirements and classification updates against; nothing was stored',
    retry: 'wait Retry-After seconds, then send the same submission again (it is idempotent)',
  },
  overloaded: { status: 503, meaning: 'the gateway is at capacity; the request was not read', retry: 'wait Retry-After seconds, then send again' },
} as const satisfies Record<string, { status: number; meaning: string; retry: string }>;

export type GatewayErrorCode = keyof typeof GATEWAY_ERRORS;

export type { WireDiagnostic };

export function toWireDiagnostics(diagnostics: readonly Diagnostic[]): WireDiagnostic[] {
  return diagnostics.map(toWireDiagnostic);
}

/**
 * The Claim Gate's answer for a verification record that carries an evidence_input, re-evaluated by the gateway:
 * in a preflight answer, and in the 422 of a submit it refuses. `reasons` are the gate's findings in plain words.
 */
export interface ClaimGateAnswer {
  status: string;
  allowed_protocol_level: string;
  reasons: string[];
  /** The whole re-evaluated output (/api/claim-gate-output-schema.v1.json). */
  output: unknown;
}

export function claimGateAnswer(judgement: SubmissionGateJudgement): ClaimGateAnswer {
  const { output, reasons } = judgement;
  return { status: output.status, allowed_protocol_level: output.allowed_protocol_level, reasons, output };
}

export interface PreflightResult {
  valid: boolean;
  submission_sha256: string | null;
  record_type: RecordType | null;
  diagnostics: WireDiagnostic[];
  /** For a verification record with an evidence_input: the gate's re-evaluation. */
  claim_gate?: ClaimGateAnswer;
  /** Preflight writes nothing and issues no receipt. */
  intake_only: true;
}

export interface SubmitResult {
  receipt: Receipt;
  /** True when this submission_sha256 was received before: the receipt is the original one. */
  duplicate: boolean;
}

export type ReceiptState = 'pending' | 'accepted' | 'rejected';

export interface ReceiptStatus {
  receipt: Receipt;
  /** Current state: pending (received), accepted (written into the archive, not yet final until readback), rejected. */
  status: ReceiptState;
  /** Present when rejected: why (e.g. a correction signed by another key than the record it corrects). */
  reason?: string;
  /** Present when accepted: the archive record id (the file name without .json) it was written as. */
  archive_id?: string;
  /** When the review decided (accepted or rejected), RFC 3339. */
  decided_at?: string;
}

/** GET /readyz when ready: the store answered a ping and the signing key signs receipts its keys document verifies. */
export interface ReadyStatus {
  status: 'ready';
  gateway_key_id: string;
  intake_only: true;
}

export interface ErrorEnvelope {
  error: {
    /** The HTTP status, repeated. */
    status: number;
    /** Stable code, e.g. invalid_json, invalid_submission, body_too_large, unsupported_media_type, rate_limited, storage_unavailable, retired_path, not_found. */
    code: string;
    message: string;
    /** The core's diagnostics for 400/413/422. */
    diagnostics?: WireDiagnostic[];
    /** For 409 guardian_key_taken: the submission_sha256 of the application already stored for this key. */
    existing_submission_sha256?: string;
    /** For 429 and 503 (also sent as Retry-After). */
    retry_after_seconds?: number;
    /** For 422 of a verification record with an evidence_input: the gate's re-evaluation and reasons. */
    claim_gate?: ClaimGateAnswer;
    /** For 410: where new submissions go. */
    current_route?: { preflight: string; submit: string; builder: string };
    /** The gateway's id for this request, also in the X-Request-Id header and its log line: quote it in a report. */
    request_id?: string;
  };
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const error = (value as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}

/** The current route, for 410 answers on retired paths and for documents: absolute URLs from the site configuration. */
export function currentRoute(config: { baseUrl: string; gatewayUrl: string }): { preflight: string; submit: string; builder: string } {
  return {
    preflight: `POST ${config.gatewayUrl}${PREFLIGHT_PATH}`,
    submit: `POST ${config.gatewayUrl}${SUBMIT_PATH}`,
    builder: `${config.baseUrl}/downloads/record-chain-builder.mjs`,
  };
}
