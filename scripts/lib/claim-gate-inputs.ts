/**
 * Evidence inputs for the gate's tests and benchmark, written for them (never copied from the corpus): a minimal V1
 * input, and a full one whose evidence reaches V5 and every component ladder's V5 rung.
 */
export type Json = Record<string, any>;

const HASH_A = 'a1'.repeat(32);
const HASH_B = 'b2'.repeat(32);

export const declaration = {
  performed_actions_myself: true,
  did_not_copy_prior_report_as_own_work: true,
  did_not_copy_example_values_as_real_evidence: true,
  recorded_fresh_sources_commands_outputs: true,
  will_report_limitations_and_downgrade_if_needed: true,
  understands_verification_is_not_truth_or_endorsement: true,
  understands_bitcoin_originals_remain_final_authority: true,
  independence_claim_is_accurate: true,
  declaration_text: 'I ran every check listed here myself in this session and recorded the commands and their outputs as they came.',
};

export const session = {
  session_id: 'tests-session-1',
  started_at: '2026-05-01T10:00:00Z',
  operator_type: 'automated_script',
  fresh_actions_performed: ['hashed two artifacts', 'ran the audit script'],
  copied_values_from_examples: false,
  copied_values_from_prior_reports: false,
  fresh_outputs_attached: true,
};

export function machineHash(artifact: string, hash: string, source: string): Json {
  return {
    artifact,
    algorithm: 'SHA-256',
    expected: hash,
    computed: hash,
    computed_by: 'machine',
    command: `record-chain-builder evidence --file ${artifact}`,
    expected_hash_source: source,
    expected_hash_authority_class: 'canonical_manifest_hash',
  };
}

/** V1 only: the authority boundary read and stated. */
export function boundaryInput(): Json {
  return {
    schema: 'service.evidence-input.v1',
    agent: { name: 'gate-tests' },
    provenance: { solicited: true, independence_class: 'human_solicited_agent_response', agency_level: 'A1_human_gave_exact_url' },
    requested_record_kind: 'verification_report_v2',
    evidence: { echo_context: { authority_boundary_recognized: true } },
    limitations: ['boundary reading only'],
    claims_requested_by_agent: ['V1'],
    agent_integrity_declaration: { ...declaration },
    verification_session: { ...session },
  };
}

/** Evidence for V5 and B2, D5, T3, C5, N0, P1. */
export function fullInput(): Json {
  return {
    ...boundaryInput(),
    evidence: {
      echo_context: { authority_boundary_recognized: true },
      hashes: [machineHash('kit.tar.gz', HASH_A, '/api/hashes.json'), machineHash('kit.tar.gz', HASH_A, 'https://mirror.example/hashes.json'), machineHash('chronicle.zip', HASH_B, '/api/hashes.json')],
      scripts: [
        {
          path: 'scripts/audit.py',
          exists: true,
          source_reviewed: true,
          executed: true,
          command: 'python3 scripts/audit.py',
          environment: { os: 'Debian 13' },
          exit_code: 0,
          stdout_summary: 'all 12 checks passed',
          result: 'PASS',
          scope_class: 'profile_required_script_audit',
          script_check_scope: 'manifest hashes',
          script_does_not_check: ['physical objects'],
        },
      ],
      bitcoin_checks: [{ source_type: 'multi_explorer', sources: ['explorer-one', 'explorer-two'] }],
      digital_mirror_checks: [{ file_exists: true, all_required_public_digital_targets_checked: true, all_unavailable_targets_listed: true }],
      time_anchor_checks: [{ anchor_type: 'bitcoin_block_time' }],
      chronicle_checks: [{ full_recovery: true, samples_recovered: 175, metadata_media_evidence: true }],
      physical_checks: [{ level_evidence_type: 'evidence_package_hash', package_hash_valid: true }],
    },
    claims_requested_by_agent: ['V5'],
  };
}
