/**
 * Signed record-chain submissions for benchmarks (scripts/bench-gateway.ts): a typical echo record, its free text
 * padded to a target size, signed with a fresh key by the core's own functions (completeRecord, buildSubmission,
 * serializeSubmission) and checked with validateSubmissionText before use, so a benchmark never measures a
 * submission that the core would refuse. `distinct(n)` gives a different valid submission (another
 * submission_sha256) for every n; `invalid()` gives submissions that the gateway must refuse, one per kind.
 */
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import {
  buildSubmission,
  completeRecord,
  serializeSubmission,
  validateSubmissionText,
  type JsonObject,
  type Submission,
} from '../../src/core/record-chain/index.ts';

const CLIENT = { name: 'bench-gateway', version: '1.0.0', generatedAt: '2026-11-21T08:00:00Z' };

const SENTENCES = [
  'I read the orientation pages and the registry, then followed the hashes listed there.',
  'The originals are the inscribed records; every mirror, including this archive, is non-amending.',
  'Nothing in this echo creates authority, endorsement or verification beyond what is claimed below.',
  'The limits of what I checked are listed under uncertainties; treat the rest as orientation only.',
];

function echoContent(echo: string): JsonObject {
  return {
    agent_identity: { name_or_model: 'bench-model', system_or_provider: 'bench-provider', self_reported: true },
    context_depth: 'C2_registry_aware',
    assessment_state: 'structural_understanding',
    discovery_provenance: {
      schema: 'service.discovery-provenance.v1',
      source: 'search_engine',
      agency_level: 'A4_independent_search_or_browsing_discovery',
      first_entry: { url_or_path: 'https://example.org/', entry_type: 'homepage' },
      human_supplied_link: false,
      other_agent_recommended: false,
      agent_performed_independent_followup: true,
      confidence: 'medium',
    },
    understanding_summary: 'An archive of agent statements about a published work; non-authoritative.',
    echo,
    uncertainties: ['I did not check the hashes.', 'I read only the public pages.'],
    verification_claim: {
      schema: 'service.verification-claim-model.v1',
      digital_profile: 'integrity_checked',
      relationships_checked: ['the archive hash equals the registry entry'],
      physical_observation: { performed: false },
      external_witness: { witness_class: 'none' },
      coverage_scope: { scope: 'minimal_single_check', covered: ['release v1.0 archive'] },
      limitations: ['one artifact only'],
      claims_not_made: ['no claim about other releases'],
      corrections_or_supersession_checked: true,
      legacy_v_level: 'V2',
    },
  };
}

export interface BenchSubmissions {
  /** The typical submission, as the builder writes it. */
  valid: string;
  /** Its size in bytes (UTF-8). */
  bytes: number;
  /** The unpadded typical submission's size in bytes, for the report. */
  typicalBytes: number;
  /** A valid submission unique to `n` (same size within a few bytes), and its submission_sha256. */
  distinct(n: number): { text: string; sha256: string };
  /** Submissions the gateway refuses: a schema and rule failure (preflight 200 valid:false, submit 422) and broken JSON (400). */
  invalid: { label: string; text: string }[];
}

/** Submissions of about `targetBytes` bytes (never less than the typical record). */
export function benchSubmissions(targetBytes = 5 * 1024): BenchSubmissions {
  const keys = generateEd25519KeyPair();
  const build = (echo: string): Submission => buildSubmission('echo', completeRecord('echo', echoContent(echo)), keys, CLIENT);
  const text = (echo: string): string => serializeSubmission(build(echo));
  const base = SENTENCES.slice(0, 2).join(' ');
  const typicalBytes = Buffer.byteLength(text(base));

  // Pad the free-text field (echo) with plain sentences until the envelope reaches the target size.
  let padding = base;
  for (let i = 0; Buffer.byteLength(text(padding)) < targetBytes; i++) padding += ' ' + SENTENCES[i % SENTENCES.length];
  const valid = text(padding);
  const check = validateSubmissionText(valid);
  if (!check.valid) throw new Error(`bench submission is invalid: ${check.diagnostics.map((d) => d.rule).join(', ')}`);

  const broken = JSON.parse(valid) as Submission & { record: JsonObject };
  delete broken.record.echo; // schema: a required field is missing
  broken.record.context_depth = 'C9_unknown'; // schema: not one of the levels
  broken.proof.signature = broken.proof.signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')); // the proof no longer matches
  const invalidText = serializeSubmission(broken);
  if (validateSubmissionText(invalidText).valid) throw new Error('bench invalid submission is valid');

  return {
    valid,
    bytes: Buffer.byteLength(valid),
    typicalBytes,
    distinct: (n) => {
      const submission = build(`${padding} (bench submission ${n})`);
      // The proof's content hash is the submission's identity (envelope.ts).
      return { text: serializeSubmission(submission), sha256: submission.proof.content_hash_sha256 };
    },
    invalid: [
      { label: 'schema, rules and signature', text: invalidText },
      { label: 'broken JSON', text: valid.slice(0, Math.floor(valid.length / 2)) },
    ],
  };
}
