/**
 * The report command's archive output (--archive-dir): the Echo v3 pair a contributor adds to the archive by pull
 * request (README "Adding a record"): a verification report (record_kind verification_report_v2) carrying the
 * gate's output, generated_by and the evidence input (as RFC 8785 text under extensions.claim_gate, so that the site
 * can run the gate on it again), and an echo_v3_with_verification_report that links it. Both are judged by the
 * archive's own core (schema and every record rule, cross/claim-gate-level included) before anything is written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkRecord } from '../../core/archive/check-record.ts';
import { nextConventionalPaths, recordIdOf } from '../../core/archive/paths.ts';
import { canonicalJson } from '../../core/canonical/jcs.ts';
import type { ClaimGateOutput } from '../../core/claim-gate/output.ts';
import { locateFindings } from '../../core/diagnostics/locate.ts';
import { isError } from '../../core/diagnostics/diagnostic.ts';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import type { JsonObject, Submission } from '../../core/record-chain/index.ts';
import type { ArchiveLookup, ArchiveRecord } from '../../core/rules/rule.ts';
import { constantTrueFlags, requiredConstants } from '../../core/schema/constants.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../../core/schema/documents.ts';
import { str, UsageError, type OptionSpec, type ParsedValues } from '../cli.ts';
import { formatReport } from '../report.ts';

export const ARCHIVE_PAIR_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'archive-dir',
    type: 'string',
    value: 'DIR',
    description: "also write the archive's Echo v3 pair (verification report + echo_v3_with_verification_report) into this archive checkout (e.g. records), under the next free names",
  },
  { name: 'context-depth', type: 'string', value: 'DEPTH', description: 'with --archive-dir: the echo\'s context_depth, e.g. C4_artifact_verified' },
  { name: 'assessment-state', type: 'string', value: 'STATE', description: 'with --archive-dir: the echo\'s assessment_state, e.g. evidence_based_assessment' },
];

/** The schema_version the echo's linked_verification_report names. */
const REPORT_SCHEMA_VERSION = 'service.verification-report.v2';

function listRecordPaths(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).map((p) => p.split('\\').join('/')).filter((p) => p.endsWith('.json'));
}

/** The archive as the rules see it: the two new records, and any other record read from disk on demand. */
function lookup(root: string, fresh: readonly ArchiveRecord[]): ArchiveLookup {
  return {
    recordAt(path) {
      const own = fresh.find((f) => f.path === path);
      if (own) return own;
      const file = join(root, path);
      if (!existsSync(file)) return undefined;
      const parsed = parseStrictJson(readFileSync(file));
      return { path, id: recordIdOf(path), ...(parsed.isObject ? { record: parsed.value as JsonObject } : {}) };
    },
  };
}

interface PairInput {
  submission: Submission;
  output: ClaimGateOutput;
  evidenceInput: JsonObject;
}

/** The Echo v3 fields both records share. */
function common(record: JsonObject, output: ClaimGateOutput): JsonObject {
  const level = output.allowed_protocol_level;
  const claim = record.verification_claim as JsonObject;
  const legacy = typeof claim.legacy_v_level === 'string' ? claim.legacy_v_level : 'none';
  return {
    schema: 'service.echo.v3',
    echo_version: '3.0',
    agent_identity: record.agent_identity,
    verification_level: legacy,
    ...(legacy !== 'none' || level !== 'none' ? { verification_scope_label: output.verification_scope_label } : {}),
    discovery_provenance: record.discovery_provenance,
    independence_class: 'self_reported',
    archive_status: 'needs_human_review',
    origin_limitations: [
      "Built by the record-chain builder's report command from the submitter's evidence input; the Claim Gate's finding is its reading of that evidence, not the archive's verdict.",
      'Hashes marked computed_by machine were computed by the builder on the submitter\'s machine; the archive has not re-hashed the artifacts.',
    ],
    counts_as_independent_attestation: false,
    understanding_summary: String(record.summary),
    verification_claim: `Bounded claim of the submitter: legacy V level ${legacy}, digital profile ${String(claim.digital_profile)}, coverage ${String((claim.coverage_scope as JsonObject | undefined)?.scope)}; limitations: ${(claim.limitations as string[]).join('; ')}. Not claimed: ${(claim.claims_not_made as string[]).join('; ')}.`,
    uncertainties: claim.limitations as string[],
    boundary_acknowledgement: requiredConstants(ECHO_RECORD_SCHEMA_ID, 'boundary_acknowledgement'),
    ...constantTrueFlags(ECHO_RECORD_SCHEMA_ID),
    claim_gate_output: output as unknown as JsonObject,
    generated_by: record.generated_by,
  };
}

/** Writes the pair when --archive-dir is given (after judging it with the archive's core); returns the paths written. */
export function writeArchivePair(values: ParsedValues, { submission, output, evidenceInput }: PairInput): string[] {
  const root = str(values, 'archive-dir');
  if (!root) return [];
  if (!existsSync(root)) throw new UsageError(`--archive-dir ${root} does not exist: give the archive's records folder of your checkout`);
  const contextDepth = str(values, 'context-depth');
  const assessmentState = str(values, 'assessment-state');
  if (!contextDepth || !assessmentState) throw new UsageError('--archive-dir needs --context-depth and --assessment-state (the echo says how far you read and assessed)');
  const record = submission.record;
  if (!record.discovery_provenance) throw new UsageError('--archive-dir needs the discovery options (--discovery-source … --confidence): an archived record says how you came to the work');

  const [reportPath, echoPath] = nextConventionalPaths(listRecordPaths(root), new Date(), 2) as [string, string];
  const base = common(record, output);
  const report: JsonObject = {
    ...base,
    record_kind: 'verification_report_v2',
    context_depth: contextDepth,
    assessment_state: assessmentState,
    echo: `${String(record.subject)}\n\n${String(record.summary)}`,
    extensions: {
      claim_gate: {
        evidence_input_jcs: canonicalJson(evidenceInput),
        note: 'The evidence input the Claim Gate ran on, as RFC 8785 text; its SHA-256 is generated_by.evidence_input.',
      },
      record_chain_submission_sha256: submission.proof.content_hash_sha256,
    },
  };
  const echo: JsonObject = {
    ...base,
    record_kind: 'echo_v3_with_verification_report',
    context_depth: contextDepth,
    assessment_state: assessmentState,
    echo: String(record.summary),
    linked_verification_report: { schema_version: REPORT_SCHEMA_VERSION, path: `/${reportPath}`, report_id: recordIdOf(reportPath) },
  };

  const fresh: ArchiveRecord[] = [
    { path: reportPath, id: recordIdOf(reportPath), record: report },
    { path: echoPath, id: recordIdOf(echoPath), record: echo },
  ];
  const archive = lookup(root, fresh);
  let invalid = false;
  for (const f of fresh) {
    const text = JSON.stringify(f.record, null, 2) + '\n';
    const diagnostics = locateFindings(checkRecord(f.record!, f, archive), text);
    if (diagnostics.some(isError)) {
      invalid = true;
      process.stderr.write(formatReport(join(root, f.path), diagnostics, 'pretty', false));
    }
  }
  if (invalid) throw new UsageError('the archive pair would not be valid in the archive (above); nothing was written');
  const written: string[] = [];
  for (const f of fresh) {
    const target = join(root, f.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, JSON.stringify(f.record, null, 2) + '\n', { flag: 'wx' });
    written.push(target);
  }
  return written;
}
