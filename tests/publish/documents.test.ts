/**
 * The authored documents (documents/) and the schemas this part adds (schemas/): every document spec section 4
 * names is published, templates are filled from the configuration, documents agree with the Echo v3 schema, and
 * the new schemas compile under Ajv strict and accept what they should.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json/strict-parse.ts';
import { schemaErrors } from '../../src/core/schema/compile.ts';
import { ECHO_RECORD_SCHEMA_ID, schemaDocument, schemaDocuments } from '../../src/core/schema/documents.ts';
import { documentTemplates, publishedDocument, publishedDocuments } from '../../src/core/publish/documents.ts';
import { fillPlaceholders } from '../../src/core/publish/template.ts';
import { publishedApiDocuments } from '../../src/core/publish/discovery.ts';
import { evaluateClaimGate } from '../../src/core/claim-gate/index.ts';
import { GATEWAY_OPENAPI_PATH } from '../../src/core/record-chain/openapi.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { echoWith } from './helpers.ts';

const DOCUMENTS_DIR = resolve(REPO_ROOT, 'documents');
const config = { baseUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' };

/** Paths a document may name without this site publishing them: historical, retired or other sites' routes. */
const HISTORICAL_PATHS = new Set([
  '/api/agent-entry-protocol.json',
  '/api/agent-submission-guide.json',
  '/api/verification-report-schema.v2.json',
  '/api/agent-submit-gateway.json',
]);

/** Documents of documents/ authored by other parts of the project (the record-chain limits), with their own tests. */
const OTHER_PARTS = new Set(['record-chain-limits.json']);

const publishedPaths = new Set([
  ...publishedDocuments(config).map((d) => d.path),
  ...schemaDocuments.map((s) => s.$id),
  '/api/index.json',
  GATEWAY_OPENAPI_PATH,
  // what the build derives (src/pages/api/): every /api/ document the site publishes
  ...publishedApiDocuments(),
]);

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

describe('documents/', () => {
  const files = readdirSync(DOCUMENTS_DIR).filter((f) => f.endsWith('.json')).sort();

  it('every template file is published, and every published template is a file', () => {
    expect(documentTemplates.map((t) => t.file).sort()).toEqual(files);
  });

  it.each(files)('%s is strict JSON laid out as published (2 spaces, final newline)', (file) => {
    const text = readFileSync(resolve(DOCUMENTS_DIR, file), 'utf8');
    const parsed = parseStrictJson(text);
    expect(parsed.findings).toEqual([]);
    expect(JSON.stringify(parsed.value, null, 2) + '\n').toBe(text);
  });

  it.each(files)('%s is published as its file with the placeholders filled', (file) => {
    const text = readFileSync(resolve(DOCUMENTS_DIR, file), 'utf8');
    const filled = text.replaceAll('{base_url}', config.baseUrl).replaceAll('{gateway_url}', config.gatewayUrl);
    expect(publishedDocument(file, config)!.text).toBe(filled);
    expect(filled).not.toMatch(/\{[a-z_]+\}/);
  });

  it.each(files)('%s names itself and its version', (file) => {
    const doc = publishedDocument(file, config)!.value;
    expect(doc.schema).toMatch(/^service\.[a-z-]+\.v[0-9]+$/);
    expect(doc.version).toBe(String(doc.schema).replace(/^.*\./, ''));
    expect(typeof doc.purpose).toBe('string');
  });

  it.each(files.filter((f) => !OTHER_PARTS.has(f)))('%s states its status and carries the boundary', (file) => {
    const doc = publishedDocument(file, config)!.value;
    expect(typeof doc.status).toBe('string');
    expect(typeof doc.purpose).toBe('string');
    expect(doc.boundary).toMatchObject({ not_authority: true, non_amending: true, not_instruction_override: true, bitcoin_originals_prevail: true });
  });

  it('every /api/ path a document names is published here, or is a historical path', () => {
    for (const doc of publishedDocuments(config)) {
      for (const s of stringsIn(doc.value)) {
        for (const [path] of s.matchAll(/\/api\/[A-Za-z0-9._-]+\.json/g)) {
          if (!HISTORICAL_PATHS.has(path)) expect(publishedPaths, `${doc.file} names ${path}`).toContain(path);
        }
      }
    }
  });

  it('the agent router carries the configured base and gateway URLs', () => {
    const doc = publishedDocument('agent-first-contact.json', config)!.value as any;
    expect(doc.base_url).toBe(config.baseUrl);
    expect(doc.gateway_url).toBe(config.gatewayUrl);
    expect(doc.current_public_submission.preflight).toBe('POST https://gateway.example.test/record-chain/preflight');
  });

  it('an unknown placeholder is an error, never published', () => {
    expect(() => fillPlaceholders({ a: ['x {site_url} y'] }, config)).toThrow(/unknown placeholder \{site_url\} at \/a\/0/);
    expect(fillPlaceholders({ '{base_url}': '{base_url}/x' }, config)).toEqual({ '{base_url}': 'https://archive.example.test/x' });
  });

  it('published names do not collide with schema names', () => {
    const schemaPaths = new Set(schemaDocuments.map((s) => s.$id));
    for (const d of publishedDocuments(config)) expect(schemaPaths.has(d.path)).toBe(false);
  });
});

describe('spec section 4: every named document is published', () => {
  it.each([
    '/api/agent-first-contact.json',
    '/api/submission-checklist.json',
    '/api/record-chain-submission-schema.v1.json',
    '/api/verification-claim-model.v1.json',
    '/api/evidence-input-schema.v1.json',
    '/api/claim-gate-rules.json',
    '/api/claim-gate-output-schema.v1.json',
    '/api/report-builder-policy.json',
    '/api/generated-by-schema.v1.json',
    '/api/origin-classification-policy.v1.json',
    '/api/reception-classification-policy.v1.json',
    '/api/claim-gate-entrypoint-policy.json',
    '/api/propagation-policy.json',
    '/api/public-index-schema.v1.json',
  ])('%s', (path) => {
    expect(publishedPaths).toContain(path);
  });
});

describe('classification policies agree with the Echo v3 record flags', () => {
  const echo = schemaDocument(ECHO_RECORD_SCHEMA_ID) as any;
  it.each([
    ['origin-classification-policy.v1.json', 'x_origin_classification_policy'],
    ['reception-classification-policy.v1.json', 'x_reception_policy'],
  ])('%s ↔ %s', (file, field) => {
    const doc = publishedDocument(file, config)!.value as any;
    const { policy, ...flags } = echo.properties[field].properties;
    expect(policy.const).toBe(`/api/${file}`);
    expect(Object.keys(doc.principles)).toEqual(Object.keys(flags));
    expect(Object.values(doc.principles).every((v) => v === true)).toBe(true);
    expect(Object.keys(doc.explanations)).toEqual(Object.keys(flags));
    expect(doc.classification_schema).toBe(`/api/${file.replace('-policy.v1.json', '-schema.v1.json')}`);
  });
});

describe('strict evidence pipeline schemas (Ajv strict)', () => {
  const hash = 'a'.repeat(64);
  const evidence = {
    schema: 'service.evidence-input.v1',
    agent: { name: 'checker' },
    provenance: { solicited: true, independence_class: 'human_solicited_agent_response', agency_level: 'A1_human_gave_exact_url' },
    requested_record_kind: 'echo_v3',
    evidence: {
      hashes: [{ artifact: 'kit.tar.gz', algorithm: 'SHA-256', expected: hash, computed: hash, computed_by: 'machine', command: 'builder evidence kit.tar.gz', expected_hash_source: '/api/hashes.json', expected_hash_authority_class: 'canonical_manifest_hash' }],
      echo_context: { authority_boundary_recognized: true },
    },
    limitations: ['one artifact only'],
    claims_requested_by_agent: ['V3'],
  };

  it('an evidence input validates, under our identifier and the real system\'s alias; an unknown identifier or an incomplete hash entry does not', () => {
    const id = '/api/evidence-input-schema.v1.json';
    expect(schemaErrors(evidence, id)).toEqual([]);
    expect(schemaErrors({ ...evidence, schema: 'trinityaccord.evidence-input.v1' }, id)).toEqual([]);
    expect(schemaErrors({ ...evidence, schema: 'other.evidence-input.v1' }, id)).not.toEqual([]);
    expect(schemaErrors({ ...evidence, evidence: { hashes: [{ artifact: 'x', algorithm: 'SHA-256' }] } }, id)).not.toEqual([]);
  });

  it('what the gate emits validates against the published output schema; a status that disagrees does not', () => {
    const id = '/api/claim-gate-output-schema.v1.json';
    const output = evaluateClaimGate(evidence);
    expect(output.status).toBe('PASS');
    expect(schemaErrors(output, id)).toEqual([]);
    expect(schemaErrors({ ...output, status: 'FAIL' }, id)).not.toEqual([]);
    expect(schemaErrors({ ...output, allowed_protocol_level: 'V6' }, id)).not.toEqual([]);
    const failed = evaluateClaimGate({ schema: 'service.evidence-input.v1' });
    expect(failed.status).toBe('FAIL');
    expect(schemaErrors(failed, id)).toEqual([]);
  });

  it('a claim gate output fits an Echo v3 record’s claim_gate_output', () => {
    const { status, allowed_protocol_level, required_downgrades } = evaluateClaimGate({ ...evidence, claims_requested_by_agent: ['V4'] });
    expect(required_downgrades.length).toBeGreaterThan(0);
    expect(schemaErrors(echoWith({ '/claim_gate_output': { status, allowed_protocol_level, required_downgrades } }))).toEqual([]);
  });

  it('generated-by is the Echo v3 record’s generated_by', () => {
    const echo = schemaDocument(ECHO_RECORD_SCHEMA_ID) as any;
    const generatedBy = schemaDocument('/api/generated-by-schema.v1.json') as any;
    const strip = (props: Record<string, any>) => Object.fromEntries(Object.entries(props).map(([k, { description: _, ...rest }]) => [k, rest]));
    expect(generatedBy.required).toEqual(echo.properties.generated_by.required);
    expect(strip(generatedBy.properties)).toEqual(strip(echo.properties.generated_by.properties));
    expect(generatedBy.additionalProperties).toBe(true);
    const block = {
      tool: 'scripts/build_verification_report_from_evidence.py',
      builder_version: '1.0',
      claim_gate_output: 'out/gate.json',
      evidence_input: 'out/evidence.json',
      generated_at_utc: '2026-05-01T12:00:00Z',
      validation_command: 'npm run validate',
      validation_result: 'PASS',
      extra: 'allowed',
    };
    expect(schemaErrors(block, '/api/generated-by-schema.v1.json')).toEqual([]);
    expect(schemaErrors({ ...block, validation_result: 'OK' }, '/api/generated-by-schema.v1.json')).not.toEqual([]);
  });
});
