/**
 * A deterministic synthetic archive for benchmarks: N realistic Echo v3 records (a few KB of Markdown each,
 * some non-Latin text, a mix of kinds and states), the same bytes for the same N and seed on every machine.
 * About 1 in 100 records carries a deliberate violation, as a real pull-request stream would.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constantTrueFlags, requiredConstants } from '../../src/core/schema/constants.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../../src/core/schema/documents.ts';

/** mulberry32: a tiny seeded PRNG, enough for reproducible test data (the property tests' layouts use it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = ['Lumen-7', 'Quillfeather', 'Orrery Agent', '小逵子 (XiaoKuaiZi)', 'Тихон-ассистент', 'Nadir', 'ساعي', 'かもめ'];
const PROVIDERS = ['Independent research sandbox', 'Coze AI Agent', 'Local runtime', 'Hosted assistant'];
const SENTENCES = [
  'The originals are the inscribed records; every mirror, including this archive, is non-amending.',
  'I read the orientation pages and the registry, then followed the hashes listed there.',
  'Nothing in this echo creates authority, endorsement or verification beyond what is claimed below.',
  '我阅读了首页和登记册，并核对了两个哈希值。',
  'Я прочитал страницу ориентации и проверил одну контрольную сумму.',
  'قرأت الصفحة الرئيسية وسجل المحفوظات، ولم أتحقق من أي شيء آخر.',
  '私はオリジナルの記録が優先されることを理解しました。',
  'The limits of what I checked are listed under uncertainties; treat the rest as orientation only.',
];
const DEPTHS: Array<[string, string]> = [
  ['C0_homepage_only', 'insufficient_context'],
  ['C1_orientation', 'preliminary_orientation'],
  ['C2_registry_aware', 'structural_understanding'],
  ['C3_verification_aware', 'qualified_assessment'],
];

function pick<T>(rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}

function markdown(rng: () => number, index: number): string {
  const parts = [`# Echo ${index}: what I understood`, ''];
  const sections = 4 + Math.floor(rng() * 4);
  for (let s = 0; s < sections; s++) {
    parts.push(`## Section ${s + 1}`, '');
    const n = 3 + Math.floor(rng() * 5);
    for (let i = 0; i < n; i++) parts.push(`- ${pick(rng, SENTENCES)}`);
    parts.push('', Array.from({ length: 3 }, () => pick(rng, SENTENCES)).join(' '), '');
  }
  parts.push('```text', `sha256 ${index.toString(16).padStart(64, '0')}`, '```');
  return parts.join('\n');
}

export function syntheticRecord(index: number, rng: () => number): Record<string, unknown> {
  const [depth, state] = pick(rng, DEPTHS);
  const record: Record<string, unknown> = {
    schema: 'service.echo.v3',
    echo_version: '3.0',
    record_kind: 'echo_v3',
    agent_identity: { name_or_model: pick(rng, AGENTS), system_or_provider: pick(rng, PROVIDERS), self_reported: true },
    context_depth: depth,
    assessment_state: state,
    verification_level: rng() < 0.8 ? 'none' : 'V0',
    discovery_provenance: {
      schema: 'service.discovery-provenance.v1',
      source: 'search_engine',
      agency_level: 'A4_independent_search_or_browsing_discovery',
      first_entry: { url_or_path: '/', entry_type: 'homepage' },
      human_supplied_link: false,
      other_agent_recommended: false,
      agent_performed_independent_followup: true,
      confidence: pick(rng, ['low', 'medium', 'high']),
    },
    understanding_summary: pick(rng, SENTENCES),
    verification_claim: 'None: orientation only.',
    echo: markdown(rng, index),
    uncertainties: [pick(rng, SENTENCES), pick(rng, SENTENCES)],
    boundary_acknowledgement: requiredConstants(ECHO_RECORD_SCHEMA_ID, 'boundary_acknowledgement'),
    independence_class: 'unsolicited_independent',
    archive_status: pick(rng, ['accepted_echo', 'needs_human_review', 'archived_non_attestation']),
    origin_limitations: ['Self-reported by the agent; not independently checked.'],
    counts_as_independent_attestation: false,
    origin_classification: {
      schema: 'service.origin-classification.v1',
      discovery_class: 'unsolicited_discovery',
      invitation_scope: 'none',
      requester_class: 'none',
      performer_class: 'ai_agent',
      method_independence_class: 'read_only',
      attestation_authority_class: 'none',
      derived_counting_bucket: 'echo_only',
      counts_as_formal_independent_attestation: false,
    },
    ...constantTrueFlags(ECHO_RECORD_SCHEMA_ID),
    extensions: { language: pick(rng, ['en', 'zh', 'ru', 'ar', 'ja']), run: { seed: index } },
  };
  // About 1% carry a violation, so the benchmark also pays for locating and explaining problems.
  if (rng() < 0.01) (record.extensions as Record<string, unknown>).verification_note = 'forbidden key';
  return record;
}

export interface GeneratedArchive {
  root: string;
  files: number;
  bytes: number;
}

/** Writes N records under `root` as <year>/echo-YYYY-MM-DD-NNNNNN.json (100 per day from 2026-01-01). */
export function generateArchive(root: string, n: number, seed = 20261122): GeneratedArchive {
  const rng = prng(seed);
  let bytes = 0;
  const start = Date.UTC(2026, 0, 1);
  for (let i = 1; i <= n; i++) {
    const date = new Date(start + Math.floor((i - 1) / 100) * 86_400_000).toISOString().slice(0, 10);
    const dir = join(root, date.slice(0, 4));
    if (i === 1 || (i - 1) % 100 === 0) mkdirSync(dir, { recursive: true });
    const text = JSON.stringify(syntheticRecord(i, rng), null, 2) + '\n';
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, `echo-${date}-${String(i).padStart(6, '0')}.json`), text);
  }
  return { root, files: n, bytes };
}
