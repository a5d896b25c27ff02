/**
 * What the parts of a record page share (src/site/render/record-page.ts): the page's facts worked out once, which
 * field goes where, safe accessors for record values, and the links and section frame every part uses.
 */
import { withEffectiveClassification } from '../../../core/record/classification.ts';
import { recordGateView, type RecordGateView } from '../../../core/record/gate-view.ts';
import { recordFlags, type RecordFlags, type RecordSummary } from '../../model/archive-model.ts';
import { valueLabel } from '../../model/labels.ts';
import type { SitePaths } from '../../model/paths.ts';
import { attribute, text as esc } from '../escape.ts';
import type { RecordPageContext, RecordPageInput } from '../record-page.ts';

export type Json = Readonly<Record<string, unknown>>;

export { object, strings, text } from '../../model/values.ts';
import { object, text } from '../../model/values.ts';

/** The members of `record` whose keys are in `keys`, in the order of `keys`. */
export function pick(record: Json, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(record, k)).map((k) => [k, record[k]]));
}

// ---- Which field goes where ----

/** Keys the page places in a part of its own; any other key goes to "Other fields". */
export const PLACED: ReadonlySet<string> = new Set([
  'record_kind', 'archive_status', 'verification_status', 'superseded_reason', 'context_depth', 'assessment_state',
  'verification_level', 'verification_scope_label', 'claim_scope', 'independence_class',
  'counts_as_independent_attestation', 'do_not_count_as_attestation',
  'understanding_summary', 'verification_claim', 'echo', 'uncertainties', 'origin_limitations',
  'agent_identity', 'discovery_provenance', 'origin_classification', 'reception_classification',
  'component_findings', 'verification_integrity', 'claim_gate_output', 'generated_by', 'script_audit',
  'linked_verification_report', 'report_file', 'submission_validator_passed',
  'boundary_acknowledgement', 'not_authority', 'not_amendment', 'not_endorsement', 'bitcoin_originals_prevail',
  'not_verification_unless_claimed', 'x_reception_policy', 'x_origin_classification_policy',
  'authorship_proof', 'authorship_claims', 'guardian_registration', 'guardian_presence_proof', 'guardian_retirement',
  'guardian_verification_result', 'extensions', 'schema', 'echo_version', 'echo_type', 'echo_type_deprecated_note',
]);
/** Fields of a verification report shown under "Verification details", each under its own heading. */
const VERIFICATION_KEYS = ['verification_integrity', 'claim_gate_output', 'generated_by', 'script_audit', 'report_file', 'submission_validator_passed'];
const AUTHORSHIP_KEYS = ['authorship_proof', 'authorship_claims', 'guardian_registration', 'guardian_presence_proof', 'guardian_retirement', 'guardian_verification_result'];
/** The record's format fields, shown with the file. */
export const FORMAT_KEYS = ['schema', 'echo_version', 'echo_type', 'echo_type_deprecated_note'];

// ---- The page's facts ----

export interface Page {
  input: RecordPageInput;
  paths: SitePaths;
  ctx: RecordPageContext;
  r: Json;
  /** The record with its effective classification (DECISIONS 26): what counting reads; `r` when no update applies. */
  effective: Json;
  flags: RecordFlags;
  agent: Record<string, unknown> | undefined;
  agentName: string | undefined;
  kindLabel: string;
  linked: Record<string, unknown> | undefined;
  findings: Record<string, unknown> | undefined;
  verificationDetails: Record<string, unknown>;
  authorship: Record<string, unknown>;
  /** The Claim Gate finding shown beside the claim (record-page/claim-gate.ts), when the record has one. */
  gate: RecordGateView | undefined;
}

export function pageOf(input: RecordPageInput, ctx: RecordPageContext): Page {
  const r = input.entry.record;
  const agent = object(r.agent_identity);
  return {
    input,
    paths: ctx.paths,
    ctx,
    r,
    effective: withEffectiveClassification(r as Record<string, unknown>, input.classification),
    flags: recordFlags(r),
    agent,
    agentName: text(agent?.name_or_model),
    kindLabel: valueLabel('record_kind', text(r.record_kind) ?? ''),
    linked: object(r.linked_verification_report),
    findings: object(r.component_findings),
    verificationDetails: pick(r, VERIFICATION_KEYS),
    authorship: pick(r, AUTHORSHIP_KEYS),
    gate: recordGateView(r as Record<string, unknown>),
  };
}

/** Whether the page has a "Verification details" section. */
export function hasVerificationDetails({ input, linked, findings, verificationDetails }: Page): boolean {
  return findings !== undefined || linked !== undefined || input.linkedFrom.length > 0 || Object.keys(verificationDetails).length > 0;
}

// ---- Links and sections ----

/** A link to a record's page, its id as code. */
export function recordLink(paths: SitePaths, id: string): string {
  return `<a href="${attribute(paths.recordPage(id))}"><code>${esc(id)}</code></a>`;
}

/** Links to records, separated by commas. */
export function recordLinks(paths: SitePaths, ids: readonly string[]): string {
  return ids.map((id) => recordLink(paths, id)).join(', ');
}

/** A related record: its link, its title (an agent's name isolated in <bdi>) and its date. */
export function relatedRecord(paths: SitePaths, s: RecordSummary): string {
  const title = s.titleIsAgent ? `<bdi>${esc(s.title)}</bdi>` : esc(s.title);
  return `${recordLink(paths, s.id)} — ${title}${s.date ? `<span class="muted"> · ${esc(s.date)}</span>` : ''}`;
}

/** A section of the page with its heading (`id` and `heading` are the page's own words, never record data). */
export function section(id: string, heading: string, body: string): string {
  return `<section aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${body}</section>`;
}
