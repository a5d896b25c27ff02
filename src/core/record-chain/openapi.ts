/**
 * The intake gateway describes itself: an OpenAPI 3.1 document, published as /api/gateway-openapi.json and linked
 * from the agent router and llms.txt. Built from the protocol module (paths, shapes, GATEWAY_ERRORS), the limits
 * policy and the gateway's default rate limits, so it cannot drift from them; tests/gateway/openapi.test.ts drives
 * the real server through every documented answer. Request and receipt bodies point to the published JSON Schemas
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12). The answer shapes are closed (additionalProperties: false), so that
 * a field the server adds without describing it here fails that test.
 */
import { LIMITS_DOCUMENT_PATH, type RecordChainLimits } from './limits.ts';
import {
  GATEWAY_ERRORS,
  HEALTH_PATH,
  PREFLIGHT_PATH,
  READY_PATH,
  RECEIPTS_PATH,
  RETIRED_PATHS,
  SUBMISSION_CONTENT_TYPE,
  SUBMISSIONS_PATH,
  SUBMIT_PATH,
  type GatewayErrorCode,
} from './protocol.ts';
import { GATEWAY_KEYS_PATH, GATEWAY_KEYS_SCHEMA_ID, RECEIPT_SCHEMA_ID } from './receipt.ts';
import { RECORD_TYPES, SUBMISSION_SCHEMA_ID } from './types.ts';

/** The published claim gate output schema, which a ClaimGateAnswer's output follows. */
const CLAIM_GATE_OUTPUT_SCHEMA_ID = '/api/claim-gate-output-schema.v1.json';

export const GATEWAY_OPENAPI_PATH = '/api/gateway-openapi.json';

export interface BucketDefaults {
  burst: number;
  perSecond: number;
}

export interface GatewayDescriptionInput {
  baseUrl: string;
  gatewayUrl: string;
  limits: RecordChainLimits;
  /** The gateway's default rate limits (operators may change them). */
  rateLimit: { perClient: BucketDefaults; global: BucketDefaults };
}

type Json = Record<string, unknown>;

/** The documented answers of one operation: its successes and the error codes it can give. */
interface Operation {
  path: string;
  method: 'get' | 'post';
  operationId: string;
  summary: string;
  description?: string;
  /** A request body: the submission (true), or one JSON-RPC message (/mcp). */
  body?: boolean | 'jsonrpc';
  /** schema null: an answer without a body. */
  success: Record<number, { description: string; schema: Json | null; headers?: string[] }>;
  errors: GatewayErrorCode[];
  rateLimited?: boolean;
  /** A retired path: described only to say it answers 410. */
  deprecated?: boolean;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const BODY_ERRORS: GatewayErrorCode[] = ['invalid_json', 'body_unreadable', 'body_too_large', 'unsupported_media_type'];
/** The archive's MCP server beside the gateway (src/gateway/mcp.ts), when the operator enables it. */
export const GATEWAY_MCP_PATH = '/mcp';

/** Retired paths as OpenAPI paths ("/gateway/*" → "/gateway/{rest}"). */
function retiredPath(p: string): string {
  return p.endsWith('/*') ? `${p.slice(0, -2)}/{rest}` : p;
}

/** The operations and their documented answers; `baseUrl` makes the published schema references absolute. */
export function gatewayOperations(baseUrl = ''): Operation[] {
  const retired: Operation[] = [...new Set([...RETIRED_PATHS.map(retiredPath), '/gateway'])].flatMap((path) =>
    (['get', 'post'] as const).map((method) => ({
      path,
      method,
      operationId: `retired_${method}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: 'Retired (historical only): answers 410 with the current route, for every method',
      success: {},
      errors: ['retired_path' as const],
      deprecated: true,
    })),
  );
  return [
    {
      path: PREFLIGHT_PATH,
      method: 'post',
      operationId: 'preflight',
      summary: 'Judge a submission without storing it',
      description:
        'Answers 200 whether the submission is valid or not (valid:false with diagnostics); writes nothing and issues no receipt. ' +
        'Includes the checks against this gateway\'s store and the public index that submit makes (chain/guardian-key-taken, chain/guardian-not-registered, chain/classification-target); ' +
        'when the public index cannot be read for them, 503 archive_index_unavailable.',
      body: true,
      success: { 200: { description: 'The verdict', schema: ref('PreflightResult') } },
      errors: [...BODY_ERRORS, 'rate_limited', 'archive_index_unavailable', 'overloaded'],
      rateLimited: true,
    },
    {
      path: SUBMIT_PATH,
      method: 'post',
      operationId: 'submit',
      summary: 'Submit a signed submission and receive an intake-only receipt',
      description:
        'Idempotent on submission_sha256: the same record submitted again (by any client, to any instance) answers 200 with the original receipt. ' +
        'A receipt is intake only: inclusion is final only when the public index lists the submission_sha256 (readback). ' +
        'Guardian records and classification updates are also checked against this gateway\'s store and the public index (docs/guardians.md): ' +
        'a second guardian_application for a key that already has one here (pending or accepted) answers 409 guardian_key_taken with existing_submission_sha256; ' +
        'a guardian_retirement for a guardian with no application here and none in the public index (chain/guardian-not-registered), and a classification_update whose target ' +
        'the public index does not list, or lists with another SHA-256 (chain/classification-target, the message gives the index\'s), answer 422 invalid_submission; ' +
        'when the public index cannot be read, 503 archive_index_unavailable with Retry-After.',
      body: true,
      success: {
        202: { description: 'New intake: the receipt (status pending)', schema: ref('SubmitResult'), headers: ['Location'] },
        200: { description: 'Received before: the original receipt (duplicate: true)', schema: ref('SubmitResult'), headers: ['Location'] },
      },
      errors: [...BODY_ERRORS, 'invalid_submission', 'guardian_key_taken', 'rate_limited', 'storage_unavailable', 'archive_index_unavailable', 'overloaded'],
      rateLimited: true,
    },
    {
      path: `${RECEIPTS_PATH}/{receipt_id}`,
      method: 'get',
      operationId: 'receiptStatus',
      summary: 'A receipt and its current review state (pending, accepted, rejected)',
      success: { 200: { description: 'The receipt as issued, and its state beside it (never re-signed)', schema: ref('ReceiptStatus') } },
      errors: ['not_found', 'rate_limited', 'storage_unavailable', 'overloaded'],
      rateLimited: true,
    },
    {
      path: `${SUBMISSIONS_PATH}/{submission_sha256}`,
      method: 'get',
      operationId: 'submissionStatus',
      summary: 'The receipt of a submission this gateway took in, found by its submission_sha256, and its current review state',
      description:
        'For an agent whose submit timed out or lost its connection after sending: 200 is the answer the receipt route gives (the signed receipt as issued, ' +
        'its state beside it), so the submission was taken in and need not be sent again; 404 not_found means it was not taken in here: submit it ' +
        '(submitting again is safe: the same content has the same identity). The submission_sha256 is the one preflight and submit print.',
      success: { 200: { description: 'Taken in: the receipt as issued, and its state beside it (never re-signed)', schema: ref('ReceiptStatus') } },
      errors: ['invalid_submission_sha256', 'not_found', 'rate_limited', 'storage_unavailable', 'overloaded'],
      rateLimited: true,
    },
    {
      path: HEALTH_PATH,
      method: 'get',
      operationId: 'health',
      summary: 'Health: the process serves and its store answers a read (container health checks)',
      description:
        `Not a pure liveness check: it answers 503 while the store does not answer. For readiness (whether to send traffic) use ${READY_PATH}; ` +
        'a liveness probe that restarts the process should not depend on the database (see docs/gateway-operations.md).',
      success: { 200: { description: 'Serving, and the store answers', schema: ref('Health') } },
      errors: ['storage_unavailable', 'overloaded'],
    },
    {
      path: READY_PATH,
      method: 'get',
      operationId: 'readiness',
      summary: 'Readiness (for load balancers and Kubernetes readiness probes): the store and the signing key are usable',
      description:
        'Answers 503 not_ready while the store is still opening, while it does not answer a ping within about a second, or when the signing key cannot sign ' +
        'receipts its keys document verifies; 200 once they are usable, without a restart. The verdict is reused for about a second.',
      success: { 200: { description: 'Ready: send traffic', schema: ref('Ready') } },
      errors: ['not_ready', 'overloaded'],
    },
    {
      path: GATEWAY_KEYS_PATH,
      method: 'get',
      operationId: 'gatewayKeys',
      summary: 'The public keys that sign receipts (also published on the site)',
      success: { 200: { description: 'The keys document', schema: { $ref: baseUrl + GATEWAY_KEYS_SCHEMA_ID } } },
      errors: ['overloaded'],
    },
    {
      path: GATEWAY_MCP_PATH,
      method: 'post',
      operationId: 'mcp',
      summary: 'The archive\'s MCP server (Model Context Protocol, Streamable HTTP, stateless), only where the operator enables it (ECHO_GATEWAY_MCP=1); elsewhere 404 not_found',
      description:
        'One JSON-RPC message per POST, answered as JSON (no sessions, no event stream: GET and DELETE answer 405). The tools read the published site and call this gateway\'s preflight, submit and receipt routes; ' +
        'draft_submission is not offered (sign with the builder, whose `mcp` command serves the same tools over stdio). Send Accept: application/json, text/event-stream. ' +
        'The Host, and the Origin when sent, must name a loopback address, the site\'s or the gateway\'s host, or one the operator allows: else 403 forbidden_origin (DNS rebinding protection). ' +
        'The body may be up to twice the submission limit plus 64 KiB. The MCP transport\'s own refusals (a message that is not JSON-RPC, an unacceptable Accept header or protocol version) are JSON-RPC errors in its own format, not ErrorEnvelopes. ' +
        'Tool errors are results (isError: true) in a 200 answer.',
      body: 'jsonrpc',
      success: {
        200: { description: 'The JSON-RPC answer to a request', schema: ref('JsonRpcMessage') },
        202: { description: 'A notification or a response was taken: no body', schema: null },
      },
      errors: [...BODY_ERRORS, 'forbidden_origin', 'rate_limited', 'overloaded'],
      rateLimited: true,
    },
    ...retired,
  ];
}

const RETRY_AFTER_HEADER = { description: 'Seconds to wait before sending again (also retry_after_seconds in the body)', schema: { type: 'integer', minimum: 1 } };

function errorResponse(code: GatewayErrorCode): Json {
  const e = GATEWAY_ERRORS[code];
  const retryAfter = code === 'rate_limited' || code === 'storage_unavailable' || code === 'not_ready' || code === 'overloaded' || code === 'archive_index_unavailable';
  return {
    description: `${code}: ${e.meaning}. ${e.retry}.`,
    ...(retryAfter ? { headers: { 'Retry-After': RETRY_AFTER_HEADER } } : {}),
    content: { 'application/json': { schema: ref('ErrorEnvelope') } },
  };
}

export function gatewayOpenApi(input: GatewayDescriptionInput): Json {
  const { limits, rateLimit } = input;
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of gatewayOperations(input.baseUrl)) {
    const responses: Record<string, Json> = {};
    for (const [status, s] of Object.entries(op.success)) {
      responses[status] = {
        description: s.description,
        headers: Object.fromEntries((s.headers ?? []).map((h) => [h, { description: `${RECEIPTS_PATH}/{receipt_id} of the receipt`, schema: { type: 'string' } }])),
        ...(s.schema ? { content: { 'application/json': { schema: s.schema } } } : {}),
      };
    }
    // Several codes can share a status (400, 503): one response per status, the codes listed in its description.
    const byStatus = new Map<number, GatewayErrorCode[]>();
    for (const code of op.errors) byStatus.set(GATEWAY_ERRORS[code].status, [...(byStatus.get(GATEWAY_ERRORS[code].status) ?? []), code]);
    for (const [status, codes] of byStatus) {
      const parts = codes.map(errorResponse);
      responses[String(status)] = { ...parts[0], description: parts.map((p) => p.description).join(' | '), 'x-error-codes': codes };
    }
    const parameters = op.path.includes('{receipt_id}')
      ? [{ name: 'receipt_id', in: 'path', required: true, schema: { type: 'string', pattern: '^rcpt_[0-9a-f]{32}$' } }]
      : op.path.includes('{submission_sha256}')
        ? [{ name: 'submission_sha256', in: 'path', required: true, description: 'the submission_sha256 preflight and submit print: 64 lowercase hex characters', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } }]
        : op.path.includes('{rest}')
          ? [{ name: 'rest', in: 'path', required: true, schema: { type: 'string' } }]
          : undefined;
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.deprecated ? { deprecated: true } : {}),
      ...(parameters ? { parameters } : {}),
      ...(op.body === 'jsonrpc'
        ? {
            requestBody: {
              required: true,
              description: `One JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification or a response), at most ${limits.max_body_bytes * 2 + 65_536} bytes.`,
              content: { 'application/json': { schema: ref('JsonRpcMessage') } },
            },
          }
        : op.body
        ? {
            requestBody: {
              required: true,
              description: `The submission file's bytes, at most ${limits.max_body_bytes} bytes (${LIMITS_DOCUMENT_PATH}). Build and sign it with the record-chain builder.`,
              content: { [SUBMISSION_CONTENT_TYPE]: { schema: { $ref: input.baseUrl + SUBMISSION_SCHEMA_ID } } },
            },
          }
        : {}),
      responses,
      ...(op.rateLimited ? { 'x-rate-limited': true } : {}),
    };
  }

  const perMinute = (b: BucketDefaults) => Math.round(b.perSecond * 60);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Echo archive record-chain intake gateway',
      version: 'v1',
      summary: 'Preflight and submit signed record-chain submissions; receipts are intake-only.',
      description: [
        'The gateway judges a submission with the same core as the builder (its doctor gives the same verdict) and issues signed, intake-only receipts: a receipt is never inclusion, acceptance, verification or attestation. A record is included only when the public index lists its submission_sha256.',
        `Every error body is an ErrorEnvelope {"error": {status, code, message, …}}; its request_id is also the X-Request-Id header of every answer: quote it when reporting a problem.`,
        `Any other method on a route answers 405 method_not_allowed with an Allow header; any other path 404 not_found. GET routes also answer HEAD.`,
        `Rate limits (defaults; an operator may change them): per client ${rateLimit.perClient.burst} requests at once, then ${perMinute(rateLimit.perClient)} per minute; for the whole gateway ${rateLimit.global.burst} at once, then ${perMinute(rateLimit.global)} per minute. They apply to preflight, submit, receipt and submission reads, and to /mcp where it is served; 429 carries Retry-After.`,
        'Retrying: a submission is identified by submission_sha256, so sending the same one again after a timeout, a 503 or a lost connection is safe: it is stored once and answers its original receipt.',
        `After a submit that timed out or lost its connection, GET ${SUBMISSIONS_PATH}/{submission_sha256} says whether it was taken in: 200 with its receipt, or 404 (then submit it again).`,
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: input.gatewayUrl, description: 'the intake gateway' }],
    externalDocs: { description: 'Agent first contact (the archive, its boundaries, the submission route)', url: `${input.baseUrl}/api/agent-first-contact.json` },
    paths,
    components: {
      schemas: {
        WireDiagnostic: {
          type: 'object',
          required: ['severity', 'rule', 'message', 'pointer', 'line', 'column', 'hint'],
          properties: {
            severity: { enum: ['error', 'warning'] },
            rule: { type: 'string', description: 'a stable rule id, e.g. json/duplicate-key, chain/content-hash' },
            message: { type: 'string' },
            pointer: { type: 'string', description: 'JSON Pointer into the submission' },
            line: { type: 'integer', minimum: 1 },
            column: { type: 'integer', minimum: 1 },
            hint: { type: 'string', description: 'what to change' },
          },
        },
        PreflightResult: {
          type: 'object',
          required: ['valid', 'submission_sha256', 'record_type', 'diagnostics', 'intake_only'],
          properties: {
            valid: { type: 'boolean' },
            submission_sha256: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' },
            record_type: { oneOf: [{ enum: [...RECORD_TYPES] }, { type: 'null' }] },
            diagnostics: { type: 'array', items: ref('WireDiagnostic') },
            claim_gate: { ...ref('ClaimGateAnswer'), description: 'for a verification carrying an evidence_input: the Claim Gate run again on it' },
            intake_only: { const: true },
          },
          additionalProperties: false,
        },
        ClaimGateAnswer: {
          type: 'object',
          description: "The Claim Gate's answer for a verification record that carries an evidence_input, re-evaluated by the gateway with the published rules (chain/claim-gate).",
          required: ['status', 'allowed_protocol_level', 'reasons', 'output'],
          properties: {
            status: { enum: ['PASS', 'PASS_WITH_DOWNGRADE', 'FAIL', 'FAIL_WITH_REASONS'] },
            allowed_protocol_level: { type: 'string', description: 'the highest level the claim may state (none, V0 … V5)' },
            reasons: { type: 'array', items: { type: 'string' }, description: "the gate's findings in plain words: its downgrades with their reasons, missing evidence, blocking failures" },
            output: { $ref: input.baseUrl + CLAIM_GATE_OUTPUT_SCHEMA_ID },
          },
          additionalProperties: false,
        },
        SubmitResult: {
          type: 'object',
          required: ['receipt', 'duplicate'],
          properties: { receipt: { $ref: input.baseUrl + RECEIPT_SCHEMA_ID }, duplicate: { type: 'boolean', description: 'true: received before; this is the original receipt' } },
          additionalProperties: false,
        },
        ReceiptStatus: {
          type: 'object',
          required: ['receipt', 'status'],
          properties: {
            receipt: { $ref: input.baseUrl + RECEIPT_SCHEMA_ID },
            status: { enum: ['pending', 'accepted', 'rejected'] },
            reason: { type: 'string', description: 'when rejected: why' },
            archive_id: { type: 'string', description: 'when accepted: the archive record id it was written as' },
            decided_at: { type: 'string', format: 'date-time', description: 'when the review decided' },
          },
          additionalProperties: false,
        },
        Ready: {
          type: 'object',
          required: ['status', 'gateway_key_id', 'intake_only'],
          properties: { status: { const: 'ready' }, gateway_key_id: { type: 'string' }, intake_only: { const: true } },
          additionalProperties: false,
        },
        Health: {
          type: 'object',
          required: ['status', 'gateway_key_id', 'intake_only'],
          properties: { status: { const: 'ok' }, gateway_key_id: { type: 'string' }, intake_only: { const: true } },
          additionalProperties: false,
        },
        JsonRpcMessage: {
          description: 'A JSON-RPC 2.0 message (https://www.jsonrpc.org/specification) of the Model Context Protocol: its methods and results are the MCP specification\'s.',
          type: 'object',
          required: ['jsonrpc'],
          properties: {
            jsonrpc: { const: '2.0' },
            id: { type: ['string', 'integer'] },
            method: { type: 'string' },
            params: { type: 'object' },
            result: { type: 'object' },
            error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
          },
        },
        ErrorEnvelope: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['status', 'code', 'message'],
              properties: {
                status: { type: 'integer', description: 'the HTTP status, repeated' },
                code: { enum: Object.keys(GATEWAY_ERRORS), description: 'stable; see x-error-codes' },
                message: { type: 'string' },
                diagnostics: { type: 'array', items: ref('WireDiagnostic'), description: 'for invalid_json, body_too_large and invalid_submission' },
                claim_gate: { ...ref('ClaimGateAnswer'), description: 'for invalid_submission of a verification carrying an evidence_input: the Claim Gate run again on it' },
                retry_after_seconds: { type: 'integer', minimum: 1, description: 'for rate_limited, storage_unavailable, archive_index_unavailable, not_ready and overloaded' },
                existing_submission_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'for guardian_key_taken: the application already stored for this key' },
                current_route: {
                  type: 'object',
                  description: 'for retired_path: where new submissions go',
                  properties: { preflight: { type: 'string' }, submit: { type: 'string' }, builder: { type: 'string' } },
                },
                request_id: { type: 'string', description: 'the X-Request-Id of this answer' },
              },
              additionalProperties: false,
            },
          },
        },
      },
    },
    'x-error-codes': Object.fromEntries(Object.entries(GATEWAY_ERRORS).map(([code, e]) => [code, { ...e }])),
    'x-limits': { document: `${input.baseUrl}${LIMITS_DOCUMENT_PATH}`, max_body_bytes: limits.max_body_bytes, max_json_depth: limits.max_json_depth, max_string_chars: limits.max_string_chars, max_total_text_chars: limits.max_total_text_chars, ...(limits.max_record_text_chars_by_type ? { max_record_text_chars_by_type: limits.max_record_text_chars_by_type } : {}) },
    'x-rate-limits': {
      scope: 'per client address (behind trusted proxies, the real client) and for the whole gateway instance',
      per_client: { burst: rateLimit.perClient.burst, per_minute: perMinute(rateLimit.perClient) },
      global: { burst: rateLimit.global.burst, per_minute: perMinute(rateLimit.global) },
      exceeded: 'rate_limited',
    },
  };
}
