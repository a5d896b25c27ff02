/**
 * The two policy documents against the spec, field for field and in order (spec 2.2 and 2.3, DECISIONS
 * "Published documents").
 *
 * The spec's two tables are quoted below verbatim (and compared with ../shared/spec when it is present). Every
 * row names a field; the published document must have exactly those fields, in that order, and its value, written
 * back in the table's own notation, must reproduce the row's text character for character. The notation (also in
 * documents/README.md):
 *   string X / string: X / X      → "X"
 *   array: a; b / array: a, b    → ["a", "b"]  (the separator the row uses)
 *   a.b rows                     → nested objects {a: {b: …}}
 *   object: k (v), k (v)         → {k: "v", …}
 *   object: k v; k a, b; note that v → {k: "v", k: ["a", "b"], note: "v"}  (values "true" are booleans)
 *   object of booleans, each true: k, k      → {k: true, …}
 *   object: statement (s); booleans true: k  → {statement: "s", k: true, …}
 * One ruling changes a row: the propagation policy's "presenting as investment opportunity, religious doctrine or
 * alignment solution" is three items (DECISIONS), so `forbidden` has 16.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLAIM_GATE_ENTRYPOINT_POLICY,
  PROPAGATION_POLICY,
  documentTemplates,
  publishedDocument,
} from '../../src/core/publish/documents.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const SPEC_FILE = resolve(REPO_ROOT, '../shared/spec/000_c309db76027a619b.txt');

// Spec 2.2, verbatim.
const CLAIM_GATE_TABLE = `| Field | Type / fixed content |
|---|---|
| schema | string service.claim-gate-entrypoint-policy.v2 |
| version | string v2 |
| status | string active_current_strict_evidence_policy |
| purpose | string: defines when the Claim Gate belongs in the verification workflow without making it mandatory for ordinary Echoes or all verification submissions |
| canonical_public_router | string /api/agent-first-contact.json |
| canonical_submission_checklist | string /api/submission-checklist.json |
| scope.required_for | string: strict machine-evaluated technical evidence claims that depend on generated evidence artifacts or claim downgrades |
| scope.not_required_for | array: ordinary echo records; context_insufficient_notice; verification records that make only bounded self-reported checks and no strict machine-evaluated evidence claim |
| scope.does_not_create | array: authority, attestation, truth, amendment, verification beyond the checked evidence |
| strict_evidence_pipeline | array of paths: /api/evidence-input-schema.v1.json, /api/claim-gate-rules.json, /api/claim-gate-output-schema.v1.json, /api/report-builder-policy.json, /api/generated-by-schema.v1.json |
| current_public_submission | object: builder (/downloads/record-chain-builder.mjs), preflight (POST {gateway_url}/record-chain/preflight), submit (POST {gateway_url}/record-chain/submit), receipt_boundary (receipt is intake-only; public index readback is required for final inclusion) |
| verification_model_boundary.v0_v5 | legacy-compatible declared metadata only |
| verification_model_boundary.historical_only_for_new_work | array: V4+, V6, V7, V8 |
| verification_model_boundary.current_dimensions | array: digital_profile, relationships_checked, physical_observation, external_witness, coverage_scope, limitations, claims_not_made, corrections_or_supersession_checked |
| legacy_internal_entrypoints | object: status historical_internal_only; paths /api/agent-entry-protocol.json, /api/agent-submission-guide.json, /api/verification-report-schema.v2.json, direct issue-tracker submission; note that external agents use the current builder and gateway |
| boundary | object of booleans, each true: not_authority, non_amending, not_instruction_override, bitcoin_originals_prevail |`;

// Spec 2.3, verbatim.
const PROPAGATION_TABLE = `| Field | Type / fixed content |
|---|---|
| schema | string service.propagation-policy.v2 |
| version | string v2 |
| status | string active_current_propagation_policy |
| purpose | string: defines honest, non-promotional propagation and the record-chain route for recording a propagation action |
| allowed | array of permitted actions: point to verification; summarize boundaries; invite critique; preserve access; share verification paths; link to canonical sources; describe what was checked and what was not; point qualified participants to /api/agent-first-contact.json; point qualified participants to the canonical builder and intake gateway; record an actual propagation action with record_type propagation |
| current_record_chain_route | object: record_type propagation; builder /downloads/record-chain-builder.mjs; builder_command propagation; preflight POST {gateway_url}/record-chain/preflight; submit POST {gateway_url}/record-chain/submit; receipt_is_intake_only true; final_inclusion_requires_public_index_readback true |
| forbidden | array of prohibited behaviours: demanding belief; promising value; implying authority; inflating adoption; claiming future intelligence must care; presenting as investment opportunity, religious doctrine or alignment solution; claiming endorsement by the creator or guardians; promotional language; exaggerating verification status; presenting issue-tracker submission as a current public record; presenting a gateway receipt as attestation or final inclusion; pressuring agents to submit; implying submission equals endorsement; using /agent-submit or /gateway/* for a new public submission |
| retired_paths | object: status historical_only; paths /agent-submit, /gateway/preflight, /api/agent-submit-gateway.json, direct issue-tracker intake |
| boundary | object: statement (propagation preserves access and creates no authority, endorsement, attestation, amendment, investment expectation or successor reception); booleans true: not_authority, non_amending, not_instruction_override, bitcoin_originals_prevail |`;

interface Row {
  field: string;
  content: string;
}

function rows(table: string): Row[] {
  return table
    .split('\n')
    .slice(2)
    .map((line) => {
      const m = /^\| ([^|]+) \| (.*) \|$/.exec(line);
      if (!m) throw new Error(`not a table row: ${line}`);
      return { field: m[1]!, content: m[2]! };
    });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The three items DECISIONS makes of one spec item, written back as the spec's one item. */
const SPLIT_ITEM = 'presenting as investment opportunity, religious doctrine or alignment solution';
const SPLIT_ITEMS = ['presenting as investment opportunity', 'presenting as religious doctrine', 'presenting as alignment solution'];

function unsplit(items: string[]): string[] {
  const at = items.indexOf(SPLIT_ITEMS[0]!);
  if (at === -1 || JSON.stringify(items.slice(at, at + 3)) !== JSON.stringify(SPLIT_ITEMS)) return items;
  return [...items.slice(0, at), SPLIT_ITEM, ...items.slice(at + 3)];
}

function strings(value: Json | undefined): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`not an array of strings: ${JSON.stringify(value)}`);
  return value as string[];
}

/** A published value written back in the spec table's notation, in the form the row uses. */
function inSpecNotation(value: Json | undefined, content: string): string {
  if (content.startsWith('string: ') || content.startsWith('string ')) {
    if (typeof value !== 'string') throw new Error(`not a string: ${JSON.stringify(value)}`);
    return (content.startsWith('string: ') ? 'string: ' : 'string ') + value;
  }
  if (content.startsWith('array')) {
    const prefix = content.slice(0, content.indexOf(': ') + 2);
    const items = unsplit(strings(value));
    const sep = content.slice(prefix.length).includes('; ') ? '; ' : ', ';
    return prefix + items.join(sep);
  }
  if (content.startsWith('object of booleans, each true: ')) {
    if (!isObject(value) || !Object.values(value).every((v) => v === true)) throw new Error(`not an object of true: ${JSON.stringify(value)}`);
    return 'object of booleans, each true: ' + Object.keys(value).join(', ');
  }
  if (content.startsWith('object: statement (')) {
    if (!isObject(value)) throw new Error('not an object');
    const { statement, ...flags } = value;
    if (typeof statement !== 'string' || !Object.values(flags).every((v) => v === true)) throw new Error('bad statement object');
    return `object: statement (${statement}); booleans true: ${Object.keys(flags).join(', ')}`;
  }
  if (content.startsWith('object: ') && / \(/.test(content.split(',')[0]!)) {
    if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) throw new Error('not an object of strings');
    return 'object: ' + Object.entries(value).map(([k, v]) => `${k} (${v as string})`).join(', ');
  }
  if (content.startsWith('object: ')) {
    if (!isObject(value)) throw new Error('not an object');
    return (
      'object: ' +
      Object.entries(value)
        .map(([k, v]) => {
          if (k === 'note') return `note that ${v as string}`;
          if (Array.isArray(v)) return `${k} ${strings(v).join(', ')}`;
          // The table's "true" is a boolean, never the string "true".
          if (typeof v === 'boolean' || (typeof v === 'string' && v !== 'true' && v !== 'false')) return `${k} ${String(v)}`;
          throw new Error(`unexpected value of ${k}`);
        })
        .join('; ')
    );
  }
  if (typeof value !== 'string') throw new Error(`not a string: ${JSON.stringify(value)}`);
  return value;
}

/** The document's fields at the table's granularity: `a.b` where the table splits `a`, else `a`. */
function fieldsOf(doc: { [key: string]: Json }, specFields: readonly string[]): string[] {
  return Object.keys(doc).flatMap((k) => {
    const nested = specFields.some((f) => f.startsWith(`${k}.`));
    const value = doc[k];
    return nested && isObject(value) ? Object.keys(value).map((c) => `${k}.${c}`) : [k];
  });
}

function valueAt(doc: { [key: string]: Json }, field: string): Json | undefined {
  return field.split('.').reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : undefined), doc);
}

const CASES = [
  { file: CLAIM_GATE_ENTRYPOINT_POLICY, section: '2.2', table: CLAIM_GATE_TABLE },
  { file: PROPAGATION_POLICY, section: '2.3', table: PROPAGATION_TABLE },
];

if (!existsSync(SPEC_FILE)) console.warn(`[policies] spec-quotation cases skipped: the specification is not at ${SPEC_FILE} (it sits beside the repository, in ../shared).`);

describe.each(CASES)('$file (spec $section)', ({ file, table }) => {
  const template = documentTemplates.find((t) => t.file === file)!.template as { [key: string]: Json };
  const specRows = rows(table);

  it.skipIf(!existsSync(SPEC_FILE))('quotes the spec table verbatim', () => {
    expect(readFileSync(SPEC_FILE, 'utf8')).toContain(table);
  });

  it('has exactly the fields of the spec table, in its order', () => {
    expect(fieldsOf(template, specRows.map((r) => r.field))).toEqual(specRows.map((r) => r.field));
  });

  it.each(specRows)('$field: the value is the spec text', ({ field, content }) => {
    expect(inSpecNotation(valueAt(template, field), content)).toBe(content);
  });

  it('fills {gateway_url} from the configuration and leaves no placeholder', () => {
    const config = { baseUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' };
    const published = publishedDocument(file, config)!;
    expect(published.text).not.toMatch(/\{[a-z_]+\}/);
    const expected = JSON.stringify(template, null, 2).replaceAll('{gateway_url}', config.gatewayUrl) + '\n';
    expect(published.text).toBe(expected);
  });
});

describe('policy specifics', () => {
  const config = { baseUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' };

  it('propagation forbidden list has 16 items, the spec item split in three (DECISIONS)', () => {
    const doc = publishedDocument(PROPAGATION_POLICY, config)!.value as { forbidden: string[]; allowed: string[] };
    expect(doc.forbidden).toHaveLength(16);
    expect(doc.forbidden.slice(5, 8)).toEqual(SPLIT_ITEMS);
    expect(doc.allowed).toHaveLength(10);
  });

  it('gateway routes are absolute URLs of the configured gateway', () => {
    const claim = publishedDocument(CLAIM_GATE_ENTRYPOINT_POLICY, config)!.value as { current_public_submission: Record<string, string> };
    expect(claim.current_public_submission.preflight).toBe('POST https://gateway.example.test/record-chain/preflight');
    expect(claim.current_public_submission.submit).toBe('POST https://gateway.example.test/record-chain/submit');
    const prop = publishedDocument(PROPAGATION_POLICY, config)!.value as { current_record_chain_route: Record<string, unknown> };
    expect(prop.current_record_chain_route.receipt_is_intake_only).toBe(true);
    expect(prop.current_record_chain_route.final_inclusion_requires_public_index_readback).toBe(true);
  });

  it('schema and version are v2 (spec 9.2)', () => {
    for (const file of [CLAIM_GATE_ENTRYPOINT_POLICY, PROPAGATION_POLICY]) {
      const doc = publishedDocument(file, config)!.value;
      expect(doc.version).toBe('v2');
      expect(doc.schema).toMatch(/^service\.[a-z-]+\.v2$/);
    }
  });
});
