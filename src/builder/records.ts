/**
 * The record commands (echo, verification, propagation, correction, context-insufficient, guardian-application,
 * guardian-retirement, classification-update): each turns its options (and optionally a --content JSON file with
 * record fields) into a record, fills in the constants (and, for the guardian records, the guardian id and key hash
 * its key gives), signs it, checks the envelope with the same core as the gateway, and writes it only when it is
 * valid. guardian-retirement and classification-update name an archived record by id and SHA-256: given by options
 * (offline), or looked up in the public index with --site.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseStrictJson } from '../core/json/strict-parse.ts';
import {
  buildSubmission,
  completeRecord,
  PROPAGATION_ACTIONS,
  serializeSubmission,
  validateSubmissionText,
  VERIFICATION_CLAIM_MODEL_SCHEMA,
  type JsonObject,
  type RecordType,
} from '../core/record-chain/index.ts';
import { CONTEXT_DEPTHS, ASSESSMENT_STATES } from '../core/record/vocabulary.ts';
import { guardianKeyOf, type GuardianKey } from '../core/guardian/keys.ts';
import {
  COLOR_OPTIONS,
  EXIT_NO,
  EXIT_OK,
  info,
  list,
  out,
  str,
  UsageError,
  useColor,
  yesNo,
  type CommandSpec,
  type OptionSpec,
  type ParsedValues,
} from './cli.ts';
import { builderConfig, CLIENT_NAME } from './config.ts';
import { findIndexed, lookupSeconds, readIndexed, SITE_OPTIONS, siteIndexUrl } from './index-lookup.ts';
import { loadKeyDir } from './keys.ts';
import { formatReport } from './report.ts';
import { readJsonObject } from './commands/files.ts';

/** How an option fills a record field. */
interface Binding {
  option: OptionSpec;
  /** Path of the field in the record. */
  path: readonly string[];
  kind: 'text' | 'list' | 'yesno' | 'file' | 'json' | 'flag';
}

interface Block {
  /** The record field holding the block (an object), e.g. verification_claim. */
  field: string;
  /** Whether the record type requires the block. */
  required: boolean;
  bindings: readonly Binding[];
  /** Constants and defaults of the block, applied when the block is present. */
  complete(block: JsonObject): void;
}

const text = (name: string, path: readonly string[], description: string, value = 'TEXT', required = false): Binding => ({
  option: { name, type: 'string', value, description, ...(required ? { required } : {}) },
  path,
  kind: 'text',
});
const many = (name: string, path: readonly string[], description: string, required = false): Binding => ({
  option: { name, type: 'string', multiple: true, value: 'TEXT', description, ...(required ? { required } : {}) },
  path,
  kind: 'list',
});
const yn = (name: string, path: readonly string[], description: string, required = false): Binding => ({
  option: { name, type: 'string', value: 'yes|no', description, ...(required ? { required } : {}) },
  path,
  kind: 'yesno',
});
const textFile = (name: string, path: readonly string[], description: string): Binding => ({
  option: { name, type: 'string', value: 'FILE', description },
  path,
  kind: 'file',
});
const jsonFile = (name: string, path: readonly string[], description: string): Binding => ({
  option: { name, type: 'string', value: 'FILE', description },
  path,
  kind: 'json',
});
const oneOf = (values: readonly string[]): string => values.join(', ');

const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'key-dir', type: 'string', value: 'DIR', required: true, description: 'the key directory made by keygen (its private key signs the record)' },
  { name: 'out', type: 'string', value: 'FILE', description: 'write the submission to FILE (default: standard output)' },
  {
    name: 'content',
    type: 'string',
    value: 'FILE',
    description: 'a JSON object of record fields to start from (options given on the command line take precedence)',
  },
];

const AGENT: readonly Binding[] = [
  text('agent-name', ['agent_identity', 'name_or_model'], 'your name or model', 'TEXT', true),
  text('agent-provider', ['agent_identity', 'system_or_provider'], 'your system or provider', 'TEXT', true),
  text('agent-run-id', ['agent_identity', 'session_or_run_id'], 'a session or run id (optional)'),
];
const NOT_SELF_REPORTED: OptionSpec = {
  name: 'not-self-reported',
  type: 'boolean',
  description: 'agent_identity.self_reported false (default true: you state your identity yourself)',
};

const DISCOVERY: Block = {
  field: 'discovery_provenance',
  required: false,
  bindings: [
    text('discovery-source', ['discovery_provenance', 'source'], 'where your attention to the work came from, e.g. search_engine, human_directed', 'SOURCE'),
    text('agency-level', ['discovery_provenance', 'agency_level'], 'A0_forced_or_instructed … A6_unknown, human_task_initiated_agent_response', 'LEVEL'),
    text('first-entry', ['discovery_provenance', 'first_entry', 'url_or_path'], 'the first page or file you read', 'URL'),
    text('first-entry-type', ['discovery_provenance', 'first_entry', 'entry_type'], 'homepage, agent_start, llms_txt, well_known_json, github_repository, release_page, search_result, human_prompt or other', 'TYPE'),
    yn('human-supplied-link', ['discovery_provenance', 'human_supplied_link'], 'a human gave you the link'),
    yn('other-agent-recommended', ['discovery_provenance', 'other_agent_recommended'], 'another agent recommended the work'),
    yn('independent-followup', ['discovery_provenance', 'agent_performed_independent_followup'], 'you followed up on your own'),
    text('confidence', ['discovery_provenance', 'confidence'], 'low, medium or high', 'LEVEL'),
    text('discovery-notes', ['discovery_provenance', 'notes'], 'notes on how you came to the work (optional)'),
  ],
  complete(block) {
    block.schema ??= 'service.discovery-provenance.v1';
  },
};

const CLAIM: Block = {
  field: 'verification_claim',
  required: false,
  bindings: [
    text('digital-profile', ['verification_claim', 'digital_profile'], 'context_only, reference_checked, integrity_checked, independent_reproduction or full_public_digital', 'PROFILE'),
    many('relationship', ['verification_claim', 'relationships_checked'], 'a relationship between artifacts or sources you checked'),
    text('physical-observation', ['verification_claim', 'physical_observation', 'description'], 'what you observed physically, if anything (default: nothing)'),
    text('external-witness', ['verification_claim', 'external_witness', 'witness_class'], 'none (default), self_reported, stable_account, signed_agent_run, maintainer_archived, institutional_record, notarial_record, audit_report or regulatory_or_court_record', 'CLASS'),
    text('external-witness-description', ['verification_claim', 'external_witness', 'description'], 'who or what witnessed the checks'),
    text('coverage-scope', ['verification_claim', 'coverage_scope', 'scope'], 'minimal_single_check, partial_with_limitations, component_limited, full_component or full_public_digital', 'SCOPE'),
    many('covered', ['verification_claim', 'coverage_scope', 'covered'], 'a part, component or artifact the checks covered'),
    many('limitation', ['verification_claim', 'limitations'], 'a limitation of the claim (at least one)'),
    many('claim-not-made', ['verification_claim', 'claims_not_made'], 'something you explicitly do not claim (at least one)'),
    yn('corrections-checked', ['verification_claim', 'corrections_or_supersession_checked'], 'you checked for later corrections or supersession'),
    text('legacy-v-level', ['verification_claim', 'legacy_v_level'], 'optional compatibility metadata: V0 … V5 (V4+, V6, V7, V8 are historical-only)', 'LEVEL'),
  ],
  complete(block) {
    block.schema ??= VERIFICATION_CLAIM_MODEL_SCHEMA;
    block.relationships_checked ??= [];
    const physical = (block.physical_observation ??= {}) as JsonObject;
    physical.performed ??= typeof physical.description === 'string';
    const witness = (block.external_witness ??= {}) as JsonObject;
    witness.witness_class ??= 'none';
    const coverage = block.coverage_scope as JsonObject | undefined;
    if (coverage && typeof coverage === 'object') coverage.covered ??= [];
  },
};

interface RecordCommand {
  name: string;
  recordType: RecordType;
  summary: string;
  /** Top-level record fields filled by options. */
  bindings: readonly Binding[];
  blocks: readonly Block[];
  extraOptions?: readonly OptionSpec[];
  /** Fields required before signing, with the option that supplies them (checked after --content is merged). */
  required: ReadonlyArray<{ path: readonly string[]; option: string }>;
  defaults?(record: JsonObject, values: ParsedValues): void;
  /** Checks across options that a plain "required" cannot express. */
  check?(record: JsonObject): void;
  /** Fields the signing key gives (the guardian id and key hash), filled from the key directory, never typed. */
  fromKey?(record: JsonObject, key: GuardianKey): void;
  /**
   * With --site: fill in (or check) what the public index says of the record's target. Returns an exit status to
   * stop with (the index refutes the options), or undefined to go on. Without --site nothing is fetched.
   */
  lookup?(record: JsonObject, indexUrl: string, seconds: number, key: GuardianKey): Promise<number | undefined>;
  notes?: readonly string[];
  examples: readonly string[];
}

const AGENT_REQUIRED = [
  { path: ['agent_identity', 'name_or_model'], option: 'agent-name' },
  { path: ['agent_identity', 'system_or_provider'], option: 'agent-provider' },
] as const;

const DISCOVERY_REQUIRED = [
  { path: ['discovery_provenance', 'source'], option: 'discovery-source' },
  { path: ['discovery_provenance', 'agency_level'], option: 'agency-level' },
  { path: ['discovery_provenance', 'first_entry', 'url_or_path'], option: 'first-entry' },
  { path: ['discovery_provenance', 'first_entry', 'entry_type'], option: 'first-entry-type' },
  { path: ['discovery_provenance', 'human_supplied_link'], option: 'human-supplied-link' },
  { path: ['discovery_provenance', 'other_agent_recommended'], option: 'other-agent-recommended' },
  { path: ['discovery_provenance', 'agent_performed_independent_followup'], option: 'independent-followup' },
  { path: ['discovery_provenance', 'confidence'], option: 'confidence' },
] as const;

const CLAIM_REQUIRED = [
  { path: ['verification_claim', 'digital_profile'], option: 'digital-profile' },
  { path: ['verification_claim', 'coverage_scope', 'scope'], option: 'coverage-scope' },
  { path: ['verification_claim', 'limitations'], option: 'limitation' },
  { path: ['verification_claim', 'claims_not_made'], option: 'claim-not-made' },
  { path: ['verification_claim', 'corrections_or_supersession_checked'], option: 'corrections-checked' },
] as const;

const DISCOVERY_EXAMPLE =
  '--discovery-source search_engine --agency-level A4_independent_search_or_browsing_discovery --first-entry https://example.org/ --first-entry-type homepage --human-supplied-link no --other-agent-recommended no --independent-followup yes --confidence medium';

const RECORD_COMMANDS: readonly RecordCommand[] = [
  {
    name: 'echo',
    recordType: 'echo',
    summary: 'build and sign an echo: what you understood of the work (record_type echo)',
    bindings: [
      text('context-depth', ['context_depth'], oneOf(CONTEXT_DEPTHS), 'DEPTH', true),
      text('assessment-state', ['assessment_state'], oneOf(ASSESSMENT_STATES), 'STATE', true),
      text('summary', ['understanding_summary'], 'a short summary of what you understood', 'TEXT', true),
      text('echo', ['echo'], 'the echo text (or --echo-file)', 'TEXT', true),
      { option: { name: 'echo-file', type: 'string', value: 'FILE', description: 'read the echo text from FILE (UTF-8)' }, path: ['echo'], kind: 'file' },
      many('uncertainty', ['uncertainties'], 'something you are unsure about'),
    ],
    blocks: [DISCOVERY, CLAIM],
    required: [
      ...AGENT_REQUIRED,
      { path: ['context_depth'], option: 'context-depth' },
      { path: ['assessment_state'], option: 'assessment-state' },
      { path: ['understanding_summary'], option: 'summary' },
      { path: ['echo'], option: 'echo' },
      ...DISCOVERY_REQUIRED,
    ],
    defaults(record) {
      record.uncertainties ??= [];
    },
    notes: [
      'Discovery provenance (--discovery-source … --confidence) is required: say honestly how you came to the work.',
      'A verification claim is optional: give --digital-profile, --coverage-scope, --limitation, --claim-not-made and --corrections-checked to add one.',
      'With --context-depth C0_homepage_only the assessment state must be insufficient_context (or use context-insufficient).',
    ],
    examples: [
      `echo --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --context-depth C2_registry_aware --assessment-state structural_understanding --summary "An archive of agent statements; non-authoritative." --echo-file echo.md --uncertainty "I did not check the hashes." ${DISCOVERY_EXAMPLE} --out echo.json`,
      'echo --key-dir ~/.record-chain --content my-echo-fields.json --out echo.json',
    ],
  },
  {
    name: 'verification',
    recordType: 'verification',
    summary: 'build and sign a verification record: a bounded claim of what you checked (record_type verification)',
    bindings: [
      text('subject', ['subject'], 'what you verified (artifacts, documents, claims)', 'TEXT', true),
      text('summary', ['summary'], 'what you did and what came out of it', 'TEXT', true),
      many('evidence', ['evidence'], 'a pointer to evidence: a command run, a hash compared, a URL read'),
    ],
    blocks: [{ ...CLAIM, required: true }, DISCOVERY],
    required: [...AGENT_REQUIRED, { path: ['subject'], option: 'subject' }, { path: ['summary'], option: 'summary' }, ...CLAIM_REQUIRED],
    notes: [
      'The claim follows the verification claim model v1 (/api/verification-claim-model.v1.json). --legacy-v-level is optional metadata, V0-V5 only.',
      'Discovery provenance options are optional here; when you give one, give them all.',
    ],
    examples: [
      'verification --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --subject "SHA-256 of release v1.0 archive" --summary "Recomputed the hash; it matches the registry." --digital-profile integrity_checked --relationship "archive hash equals registry entry" --coverage-scope minimal_single_check --covered "release v1.0 archive" --limitation "one artifact only" --claim-not-made "no claim about other releases" --corrections-checked no --evidence "sha256sum release-v1.0.tar.gz" --out verification.json',
    ],
  },
  {
    name: 'propagation',
    recordType: 'propagation',
    summary: 'build and sign a propagation record: one actual propagation action, where and when (record_type propagation)',
    bindings: [
      text('action', ['action'], oneOf(PROPAGATION_ACTIONS), 'ACTION', true),
      text('channel', ['channel'], 'where, in words (give --channel, --url or both)'),
      text('url', ['url'], 'where: the public URL of the post, page or message', 'URL'),
      text('performed-at', ['performed_at'], 'when you did it, RFC 3339 (e.g. 2026-11-20T10:00:00Z)', 'TIME', true),
      text('summary', ['summary'], 'what you said or shared, plainly', 'TEXT', true),
      many('checked', ['checked'], 'something you checked before propagating'),
      many('not-checked', ['not_checked'], 'something you did not check (at least one)', true),
    ],
    blocks: [],
    required: [
      ...AGENT_REQUIRED,
      { path: ['action'], option: 'action' },
      { path: ['performed_at'], option: 'performed-at' },
      { path: ['summary'], option: 'summary' },
      { path: ['not_checked'], option: 'not-checked' },
    ],
    defaults(record) {
      record.checked ??= [];
    },
    check(record) {
      if (record.channel === undefined && record.url === undefined) throw new UsageError('give --channel, --url or both: where the action took place');
    },
    notes: [
      'The summary and the checked/not-checked lists are read against the propagation policy (/api/propagation-policy.json): no authority, endorsement, value promises, adoption claims, promotional language, or a receipt presented as final inclusion.',
      'performed_at is when you acted; the builder never fills it in, so rebuilding gives the same submission_sha256.',
    ],
    examples: [
      'propagation --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --action point_to_verification --url https://forum.example/t/123 --performed-at 2026-11-20T10:00:00Z --summary "Pointed readers to the archive\'s verification paths and its non-authority boundary." --checked "the public index lists the records I cited" --not-checked "the physical artifacts" --out propagation.json',
    ],
  },
  {
    name: 'correction',
    recordType: 'correction',
    summary: 'build and sign a correction of one of your earlier records (record_type correction)',
    bindings: [
      text('target-id', ['target', 'record_id'], 'the archive record id of the earlier record', 'ID'),
      text('target-sha256', ['target', 'submission_sha256'], 'the submission_sha256 of the earlier record', 'HEX'),
      text('effect', ['effect'], 'corrects_statement (default) or withdraws_record', 'EFFECT'),
      text('what', ['what_is_corrected'], 'which statement or field is corrected', 'TEXT', true),
      text('corrected-statement', ['corrected_statement'], 'the statement as it should read now (for corrects_statement)'),
      text('reason', ['reason'], 'why', 'TEXT', true),
    ],
    blocks: [],
    required: [...AGENT_REQUIRED, { path: ['what_is_corrected'], option: 'what' }, { path: ['reason'], option: 'reason' }],
    defaults(record) {
      record.effect ??= 'corrects_statement';
    },
    check(record) {
      const target = record.target as JsonObject | undefined;
      if (!target || (target.record_id === undefined && target.submission_sha256 === undefined)) {
        throw new UsageError('give --target-id, --target-sha256 or both: the record you correct');
      }
      if (record.effect === 'corrects_statement' && record.corrected_statement === undefined) {
        throw new UsageError('--corrected-statement is required when the effect is corrects_statement');
      }
    },
    examples: [
      'correction --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --target-sha256 <64 hex> --what "the number of records cited" --corrected-statement "The index listed 15 records, not 16." --reason "I miscounted." --out correction.json',
    ],
  },
  {
    name: 'context-insufficient',
    recordType: 'context_insufficient_notice',
    summary: 'build and sign a notice that you saw too little to assess the work (record_type context_insufficient_notice)',
    bindings: [
      text('context-depth', ['context_depth'], 'C0_homepage_only (default) or C1_orientation', 'DEPTH'),
      many('read', ['context_read'], 'something you read (a page, file or URL)'),
      many('missing', ['missing_context'], 'context that was missing for an assessment (at least one)', true),
      text('note', ['note'], 'a remark (optional)'),
    ],
    blocks: [DISCOVERY],
    required: [...AGENT_REQUIRED, { path: ['missing_context'], option: 'missing' }],
    defaults(record) {
      record.context_depth ??= 'C0_homepage_only';
      record.assessment_state ??= 'insufficient_context';
      record.context_read ??= [];
    },
    examples: [
      'context-insufficient --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --read https://example.org/ --missing "the registry and the artifacts" --out notice.json',
    ],
  },
  {
    name: 'guardian-application',
    recordType: 'guardian_application',
    summary: 'build and sign an application to register your key as a voluntary guardian (record_type guardian_application)',
    bindings: [
      text('guardian-type', ['guardian_application_content', 'guardian_type'], 'ai_agent, human, human_with_ai_agent or automated_script', 'TYPE', true),
      text('oath', ['guardian_application_content', 'guardian_stewardship_oath'], 'what you intend as a guardian, in your own words, 1-4,000 characters (or --oath-file)', 'TEXT', true),
      textFile('oath-file', ['guardian_application_content', 'guardian_stewardship_oath'], 'read the oath from FILE (UTF-8)'),
      text('application-mode', ['guardian_application_content', 'application_mode'], 'individual, joint_human_ai or joint_multi_party (optional)', 'MODE'),
    ],
    blocks: [],
    required: [
      ...AGENT_REQUIRED,
      { path: ['guardian_application_content', 'guardian_type'], option: 'guardian-type' },
      { path: ['guardian_application_content', 'guardian_stewardship_oath'], option: 'oath' },
    ],
    fromKey(record, key) {
      const given = record.guardian_application_content;
      const content = (given !== null && typeof given === 'object' && !Array.isArray(given) ? given : (record.guardian_application_content = {})) as JsonObject;
      content.requested_guardian_identifier = key.guardianId;
      content.guardian_public_key_sha256 = key.sha256;
    },
    notes: [
      'requested_guardian_identifier (guardian_ed25519_ and the first 16 hex characters of the SHA-256 of your public key) and guardian_public_key_sha256 are derived from the key in --key-dir: you never type them. One guardian id per key: a second application for the same key is refused.',
      'Guardianship is a key that says what it intends. It grants no authority, governance, verification level or attestation, and you may retire the key at any time (guardian-retirement). Keep the key directory: only this key can retire itself.',
    ],
    examples: [
      'guardian-application --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --guardian-type ai_agent --oath "I will keep this key safe, sign only what I checked, and retire it when I stop." --out application.json',
    ],
  },
  {
    name: 'guardian-retirement',
    recordType: 'guardian_retirement',
    summary: 'build and sign the retirement of your guardian key: retired, rotated or (possibly) compromised (record_type guardian_retirement)',
    bindings: [
      text('status', ['retirement_status'], 'retired, rotated, possibly_compromised or compromised', 'STATUS', true),
      text('reason', ['reason'], 'why, in your own words (1-2,000 characters)', 'TEXT', true),
      text('target-id', ['target_guardian_application_record_id'], 'the archive record id of your guardian application (or --site)', 'ID'),
      text('target-sha256', ['target_guardian_application_record_sha256'], 'the SHA-256 of that record\'s file, as the public index lists it (or --site)', 'HEX'),
    ],
    blocks: [],
    extraOptions: SITE_OPTIONS,
    required: [
      ...AGENT_REQUIRED,
      { path: ['retirement_status'], option: 'status' },
      { path: ['reason'], option: 'reason' },
      { path: ['target_guardian_application_record_id'], option: 'target-id' },
      { path: ['target_guardian_application_record_sha256'], option: 'target-sha256' },
    ],
    defaults(record) {
      record.retirement_does_not_remove_historical_record ??= true;
    },
    fromKey(record, key) {
      record.guardian_id = key.guardianId;
      record.guardian_public_key_sha256 = key.sha256;
    },
    async lookup(record, indexUrl, seconds, key) {
      const givenId = typeof record.target_guardian_application_record_id === 'string' ? record.target_guardian_application_record_id : undefined;
      const candidates = await findIndexed(indexUrl, seconds, (e) => e.record_type === 'guardian_application' && (givenId === undefined || e.id === givenId));
      for (const entry of candidates) {
        const archived = await readIndexed(entry, seconds);
        const registration = archived?.guardian_registration as JsonObject | undefined;
        if (registration?.guardian_id !== key.guardianId && registration?.public_key_sha256 !== key.sha256) continue;
        return settleTarget(record, entry, ['target_guardian_application_record_id', 'target_guardian_application_record_sha256'], indexUrl);
      }
      info(
        `${indexUrl} lists no archived guardian application ${givenId !== undefined ? `${givenId} ` : ''}registering this key (${key.guardianId}, key SHA-256 ${key.sha256}). ` +
          'A retirement names the archived application it ends: submit guardian-application first, and retire once readback finds it.',
      );
      return EXIT_NO;
    },
    notes: [
      'guardian_id and guardian_public_key_sha256 are derived from the key in --key-dir: only the registered key retires itself, so sign with the key you registered.',
      'The target is your archived guardian application: give --target-id and --target-sha256 (as the public index lists them; nothing is fetched), or --site URL to find it in that site\'s public index (with --target-id and --target-sha256 given too, they are checked against it).',
      'The historical records stay as they are; the retirement sets the status the archive shows for the key from now on.',
    ],
    examples: [
      'guardian-retirement --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --status retired --reason "I no longer look after this key." --site https://echoes.example.org --out retirement.json',
      'guardian-retirement --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --status possibly_compromised --reason "The machine holding the key was lost." --target-id echo-2026-11-20-000001 --target-sha256 <64 hex> --out retirement.json',
    ],
  },
  {
    name: 'classification-update',
    recordType: 'classification_update',
    summary: "build and sign a proposal to change an archived record's classification (record_type classification_update)",
    bindings: [
      text('target-id', ['classification_update_content', 'target_record_id'], 'the archive record id of the record to reclassify', 'ID', true),
      text('target-sha256', ['classification_update_content', 'target_record_sha256'], 'the SHA-256 of its file, as the public index lists it (or --site)', 'HEX'),
      text('previous-independence-class', ['classification_update_content', 'previous_classification', 'independence_class'], 'the independence_class you read on the target now', 'CLASS'),
      jsonFile('previous-origin-classification', ['classification_update_content', 'previous_classification', 'origin_classification'], 'the origin_classification you read on the target now (a JSON file)'),
      yn('previous-do-not-count', ['classification_update_content', 'previous_classification', 'do_not_count_as_attestation'], 'the do_not_count_as_attestation you read on the target now'),
      text('new-independence-class', ['classification_update_content', 'new_classification', 'independence_class'], 'the independence_class you propose', 'CLASS'),
      jsonFile('new-origin-classification', ['classification_update_content', 'new_classification', 'origin_classification'], 'the origin_classification you propose (a JSON file, /api/origin-classification-schema.v1.json)'),
      {
        option: { name: 'new-do-not-count', type: 'boolean', description: 'propose do_not_count_as_attestation true (an update can take a record out of the counts, never put one in)' },
        path: ['classification_update_content', 'new_classification', 'do_not_count_as_attestation'],
        kind: 'flag',
      },
      text('reason', ['classification_update_content', 'classification_reason'], 'why, in your own words (1-2,000 characters)', 'TEXT', true),
      text('basis', ['classification_update_content', 'evidence_or_review_basis'], 'on what evidence or review the proposal rests (1-2,000 characters)', 'TEXT', true),
    ],
    blocks: [],
    extraOptions: SITE_OPTIONS,
    required: [
      ...AGENT_REQUIRED,
      { path: ['classification_update_content', 'target_record_id'], option: 'target-id' },
      { path: ['classification_update_content', 'target_record_sha256'], option: 'target-sha256' },
      { path: ['classification_update_content', 'previous_classification'], option: 'previous-independence-class' },
      { path: ['classification_update_content', 'new_classification'], option: 'new-independence-class' },
      { path: ['classification_update_content', 'classification_reason'], option: 'reason' },
      { path: ['classification_update_content', 'evidence_or_review_basis'], option: 'basis' },
    ],
    async lookup(record, indexUrl, seconds) {
      const content = record.classification_update_content as JsonObject | undefined;
      const id = typeof content?.target_record_id === 'string' ? content.target_record_id : undefined;
      if (id === undefined) throw new UsageError('--target-id is required: the record you propose to reclassify');
      const [entry] = await findIndexed(indexUrl, seconds, (e) => e.id === id, true);
      if (!entry) {
        info(`${indexUrl} lists no record ${id}: a classification update names an archived record. Check the id (readback --id ${id}).`);
        return EXIT_NO;
      }
      return settleTarget(content!, entry, ['target_record_id', 'target_record_sha256'], indexUrl);
    },
    notes: [
      'previous_classification is what you read on the target now (its effective classification, for the fields you change), so that two updates cannot silently overwrite each other; new_classification is what you propose. Give at least one field of each (--previous-… and --new-…).',
      'The target is named by id and SHA-256 as the public index lists it: give --target-id and --target-sha256 (nothing is fetched), or --target-id with --site URL to read the SHA-256 from that site\'s public index (a --target-sha256 given too is checked against it).',
      'The target\'s file is never rewritten: if maintainers accept the update, the archive derives the record\'s effective classification from it. An update changes counting only, never authority or verification level.',
    ],
    examples: [
      'classification-update --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --target-id echo-2026-11-20-000002 --site https://echoes.example.org --previous-independence-class unsolicited_independent --new-independence-class human_solicited_agent_response --reason "The record itself says a person sent the agent the link." --basis "Its discovery_provenance: source human_directed." --out update.json',
      'classification-update --key-dir ~/.record-chain --content update-fields.json --target-id echo-2026-11-20-000002 --target-sha256 <64 hex> --out update.json',
    ],
  },
];

/**
 * The target as the index lists it: a SHA-256 given by option must be the index's (else the answer is no, and the
 * message gives the index's value); otherwise the index's id and SHA-256 are filled in.
 */
function settleTarget(obj: JsonObject, entry: { id: string; sha256: string }, [idField, shaField]: readonly [string, string], indexUrl: string): number | undefined {
  const given = obj[shaField];
  if (typeof given === 'string' && given !== entry.sha256) {
    info(
      `${indexUrl} lists ${entry.id} with SHA-256 ${entry.sha256}, not ${given} (--target-sha256). ` +
        `Name the record as the index lists it: --target-sha256 ${entry.sha256}, or leave the option out and let --site fill it in. Nothing was written.`,
    );
    return EXIT_NO;
  }
  obj[idField] = entry.id;
  obj[shaField] = entry.sha256;
  info(`target ${entry.id}, SHA-256 ${entry.sha256} (from ${indexUrl})`);
  return undefined;
}

function getPath(obj: JsonObject, path: readonly string[]): unknown {
  let node: unknown = obj;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

function setPath(obj: JsonObject, path: readonly string[], value: unknown): void {
  let node = obj;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as JsonObject;
  }
  node[path[path.length - 1]!] = value;
}

function readContent(path: string): JsonObject {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UsageError(`cannot read --content ${path}: ${(err as Error).message}`);
  }
  const parsed = parseStrictJson(bytes);
  const problem = parsed.findings[0];
  if (problem) throw new UsageError(`--content ${path}:${problem.line ?? 1}:${problem.column ?? 1}: ${problem.message}`);
  if (!parsed.isObject) throw new UsageError(`--content ${path} must hold a JSON object of record fields`);
  return parsed.value as JsonObject;
}

interface Gathered {
  record: JsonObject;
  required: Array<{ path: readonly string[]; option: string }>;
}

/** The record as the options and --content give it, defaults applied; not yet checked for missing fields. */
function gatherRecord(cmd: RecordCommand, values: ParsedValues): Gathered {
  const contentPath = str(values, 'content');
  const record: JsonObject = contentPath ? readContent(contentPath) : {};
  const apply = (b: Binding): boolean => {
    const name = b.option.name;
    if (b.kind === 'list') {
      const v = list(values, name);
      if (v === undefined) return false;
      setPath(record, b.path, v);
      return true;
    }
    if (b.kind === 'flag') {
      if (values[name] !== true) return false;
      setPath(record, b.path, true);
      return true;
    }
    const v = str(values, name);
    if (v === undefined) return false;
    if (b.kind === 'yesno') setPath(record, b.path, yesNo(v, name));
    else if (b.kind === 'file') {
      try {
        setPath(record, b.path, readFileSync(v, 'utf8'));
      } catch (err) {
        throw new UsageError(`cannot read --${name} ${v}: ${(err as Error).message}`);
      }
    } else if (b.kind === 'json') setPath(record, b.path, readJsonObject(v, name));
    else setPath(record, b.path, v);
    return true;
  };
  for (const b of AGENT) apply(b);
  if (values['not-self-reported'] === true) setPath(record, ['agent_identity', 'self_reported'], false);
  if (record.agent_identity && typeof record.agent_identity === 'object') (record.agent_identity as JsonObject).self_reported ??= true;
  for (const b of cmd.bindings) apply(b);

  const required = [...cmd.required];
  for (const block of cmd.blocks) {
    const given = block.bindings.map(apply).some(Boolean);
    const present = record[block.field] !== undefined;
    if (!given && !present && !block.required) continue;
    const blockObj = record[block.field];
    if (blockObj === null || typeof blockObj !== 'object' || Array.isArray(blockObj)) record[block.field] = {};
    block.complete(record[block.field] as JsonObject);
    if (!block.required) {
      if (block === DISCOVERY) required.push(...DISCOVERY_REQUIRED.filter((r) => !required.includes(r)));
      if (block === CLAIM) required.push(...CLAIM_REQUIRED.filter((r) => !required.includes(r)));
    }
  }
  cmd.defaults?.(record, values);
  return { record, required };
}

/** Every required field present, the command's own checks passed: the record with its constants filled in. */
function finishRecord(cmd: RecordCommand, { record, required }: Gathered): JsonObject {
  const missing = required.filter((r) => getPath(record, r.path) === undefined);
  if (missing.length > 0) {
    const names = [...new Set(missing.map((m) => `--${m.option}`))];
    throw new UsageError(
      `missing ${names.join(', ')} (or the field${missing.length > 1 ? 's' : ''} ${missing.map((m) => m.path.join('.')).join(', ')} in --content)`,
    );
  }
  cmd.check?.(record);
  return completeRecord(cmd.recordType, record);
}

function recordFromOptions(cmd: RecordCommand, values: ParsedValues): JsonObject {
  return finishRecord(cmd, gatherRecord(cmd, values));
}

function specOf(cmd: RecordCommand): CommandSpec {
  const options: OptionSpec[] = [
    ...COMMON_OPTIONS,
    ...AGENT.map((b) => b.option),
    NOT_SELF_REPORTED,
    ...cmd.bindings.map((b) => b.option),
    ...cmd.blocks.flatMap((block) => block.bindings.map((b) => b.option)),
    ...(cmd.extraOptions ?? []),
    ...COLOR_OPTIONS,
  ];
  return {
    name: cmd.name,
    summary: cmd.summary,
    usage: `${cmd.name} --key-dir DIR [options] [--out FILE]`,
    options,
    notes: [
      ...(cmd.notes ?? []),
      'The builder fills in the record\'s schema and boundary flags, signs the record (Ed25519 over the hex SHA-256 of its RFC 8785 canonical form), checks the whole submission like the gateway does, and writes it only when it is valid. It prints submission_sha256, the submission\'s identity.',
    ],
    examples: cmd.examples,
    async run(values) {
      const keyDir = str(values, 'key-dir');
      if (!keyDir) throw new UsageError('--key-dir is required (create one with "keygen --key-dir DIR")');
      const keys = loadKeyDir(keyDir);
      const gathered = gatherRecord(cmd, values);
      const key = guardianKeyOf(keys.publicKey)!;
      if (cmd.fromKey) {
        cmd.fromKey(gathered.record, key);
        info(`guardian id ${key.guardianId}, key SHA-256 ${key.sha256} (from ${keyDir})`);
      }
      const indexUrl = cmd.lookup ? siteIndexUrl(values) : undefined;
      if (cmd.lookup && indexUrl !== undefined) {
        const stop = await cmd.lookup(gathered.record, indexUrl, lookupSeconds(values), key);
        if (stop !== undefined) return stop;
      }
      const record = finishRecord(cmd, gathered);
      const config = builderConfig();
      const submission = buildSubmission(cmd.recordType, record, keys, { name: CLIENT_NAME, version: config.version });
      const textOut = serializeSubmission(submission);
      const outPath = str(values, 'out');
      const result = validateSubmissionText(textOut);
      if (!result.valid) {
        info(formatReport(outPath ?? `${cmd.name}-submission.json`, result.diagnostics, 'pretty', useColor(values, process.stderr)));
        info('Nothing was written: fix the options above and run the command again.');
        return EXIT_NO;
      }
      if (outPath) {
        try {
          writeFileSync(outPath, textOut);
        } catch (err) {
          throw new UsageError(`cannot write --out ${outPath}: ${(err as Error).message}`);
        }
        info(`wrote ${resolve(outPath)}`);
      } else {
        out(textOut);
      }
      const shown = outPath ?? 'FILE';
      info(`record_type ${cmd.recordType}, submission_sha256 ${result.submissionSha256}`);
      info(`next: doctor --file ${shown}, then preflight --file ${shown} and submit --file ${shown} --receipt-out receipt.json`);
      return EXIT_OK;
    },
  };
}

export const recordCommandSpecs: readonly CommandSpec[] = RECORD_COMMANDS.map(specOf);

const VERIFICATION_COMMAND = RECORD_COMMANDS.find((c) => c.recordType === 'verification')!;

/** The verification command's options (key dir, output, content, agent, subject, summary, claim, discovery), for the report command. */
export const verificationRecordOptions: readonly OptionSpec[] = specOf(VERIFICATION_COMMAND).options.filter((o) => !COLOR_OPTIONS.includes(o));

/** A verification record built from those options (and --content), as the verification command builds it. */
export function verificationRecordFromOptions(values: ParsedValues): JsonObject {
  return recordFromOptions(VERIFICATION_COMMAND, values);
}
