/**
 * What the build derives from the whole archive about keys and trust over time (DECISIONS 25 and 26,
 * docs/guardians.md sections 4 and 5), worked out once per build in archive order and handed to every publisher:
 * the guardian registry (src/core/guardian/registry.ts) and the effective classification of the records that
 * classification updates name (src/core/record/classification.ts). Nothing here is written back into a record: the
 * public index, the record pages, the guardian pages and /api/guardian-registry.json read these views.
 *
 * Like lifecycle-links.ts: one derivation per build, passed to the pages and the index.
 */
import { guardianSummary, deriveGuardianRegistry, type GuardianRegistry, type GuardianStatus, type GuardianVerificationResult } from '../guardian/registry.ts';
import {
  classificationViews,
  withEffectiveClassification,
  type Classification,
  type ClassificationChange,
  type ClassificationView,
} from '../record/classification.ts';
import { byArchivePath, recordJsonUrl, recordPageUrl, type PublishRecord } from './records.ts';

export interface ArchiveViews {
  registry: GuardianRegistry;
  /** Record id → its classification view, for every record a classification update names. */
  classifications: Map<string, ClassificationView>;
  /** Classification update id → the id of the archive record it names (for the link from the update to its target). */
  reclassifies: Map<string, string>;
}

/** The views of an archive; `records` in any order (they are taken in archive order, the public index's). */
export function deriveArchiveViews(records: readonly PublishRecord[]): ArchiveViews {
  const sorted = byArchivePath(records);
  const registry = deriveGuardianRegistry(sorted.map((r) => ({ id: r.id, record: r.record })));
  const classifications = classificationViews(sorted.map((r) => ({ id: r.id, sha256: r.sha256, archiveDate: r.archiveDate, record: r.record })));
  const reclassifies = new Map<string, string>();
  for (const [target, view] of classifications) for (const change of view.history) reclassifies.set(change.record_id, target);
  return { registry, classifications, reclassifies };
}

/** The record as counts and facets read it: its effective classification in place of its own (DECISIONS 26). */
export function effectiveRecord(views: ArchiveViews | undefined, id: string, record: Record<string, unknown>): Record<string, unknown> {
  return views === undefined ? record : withEffectiveClassification(record, views.classifications.get(id));
}

// ---- The index entry's `guardian` and `classification` ----

/** The guardian verification result as the index entry and the record page show it (docs/guardians.md section 5). */
export interface GuardianEntry {
  guardian_id: string;
  /** `00001`, …; null when the key is not registered. */
  registry_number: string | null;
  registry_status: GuardianStatus | 'not_in_registry';
  guardian_status: GuardianVerificationResult['guardian_status'];
  /** In plain words, e.g. "registered guardian 00001, active" (guardianSummary). */
  summary: string;
  /** E.g. "signed after the key was reported compromised (record …)". */
  warnings: string[];
}

export function guardianEntry(result: GuardianVerificationResult | undefined): GuardianEntry | null {
  if (result === undefined) return null;
  return {
    guardian_id: result.guardian_id,
    registry_number: result.guardian_registry_number === 'unassigned' ? null : result.guardian_registry_number,
    registry_status: result.registry_status,
    guardian_status: result.guardian_status,
    summary: guardianSummary(result),
    warnings: [...result.warnings],
  };
}

/** The classification of a record some update names: effective and original values and every update, in archive order. */
export interface ClassificationEntry {
  effective: Classification;
  original: Classification;
  history: ClassificationHistoryEntry[];
}

/**
 * One update in the index and on pages: the archive's facts about it, and the proposer's own text apart under
 * `submitted`, as every submitted free text is in the index (untrusted: shown as the proposer's words, never as ours).
 */
export interface ClassificationHistoryEntry {
  record_id: string;
  accepted_on: string | null;
  previous: Classification;
  proposed: Classification;
  applied: boolean;
  not_applied_because?: string;
  submitted: { proposed_by: string; reason: string; basis: string };
}

export function classificationEntry(view: ClassificationView | undefined): ClassificationEntry | null {
  if (view === undefined) return null;
  return {
    effective: { ...view.effective },
    original: { ...view.original },
    history: view.history.map((c) => ({
      record_id: c.record_id,
      accepted_on: c.accepted_on,
      previous: { ...c.previous },
      proposed: { ...c.proposed },
      applied: c.applied,
      ...(c.not_applied_because !== undefined ? { not_applied_because: c.not_applied_because } : {}),
      submitted: { proposed_by: c.proposed_by, reason: c.reason, basis: c.basis },
    })),
  };
}

// ---- /api/guardian-registry.json ----

export const GUARDIAN_REGISTRY_PATH = '/api/guardian-registry.json';
export const GUARDIAN_REGISTRY_SCHEMA = 'service.guardian-registry.v1';

export const GUARDIAN_BOUNDARY =
  'Guardianship changes no authority, verification level or count. A guardian is a key that said, in its own words, what it intends; the archive only keeps track of what such keys said and signed. A guardian verification result proves possession of the key only.';

export const GUARDIAN_REGISTRY_NOTES: readonly string[] = [
  'Derived by the build from the archived records in archive order (DECISIONS 25); never written into a record and never authority.',
  'declared_intent.text is the guardian\'s own words, copied verbatim from its registration: untrusted, not the archive\'s.',
  'Registry numbers follow the order of accepted registrations; a key is registered once; a status is set only by a retirement signed by the registered key, the latest one wins.',
  'Paths beginning with a slash are relative to the base URL of the site that serves this document.',
];

export interface RegistryRecordRef {
  record_id: string;
  /** The record's page. */
  page: string;
  /** The raw record. */
  url: string;
}

const ref = (id: string): RegistryRecordRef => ({ record_id: id, page: recordPageUrl(id), url: recordJsonUrl(id) });

export interface GuardianRegistryDocument {
  schema: typeof GUARDIAN_REGISTRY_SCHEMA;
  version: 'v1';
  boundary: string;
  notes: readonly string[];
  guardian_count: number;
  guardians: Array<{
    registry_number: string;
    guardian_id: string;
    /** The guardian's page. */
    page: string;
    public_key_sha256: string;
    guardian_type: string;
    application_mode: string | null;
    declared_intent: { words_of: 'the guardian'; text: string };
    status: GuardianStatus;
    status_set_by: RegistryRecordRef;
    history: Array<{ status: GuardianStatus } & RegistryRecordRef>;
    signed_records: RegistryRecordRef[];
  }>;
  ignored: Array<{ guardian_id: string | null; reason: string } & RegistryRecordRef>;
}

/** The guardian pages' URL (/guardians/<guardian_id>/); a guardian id is `guardian_ed25519_` and 16 hex digits. */
export function guardianPageUrl(guardianId: string): string {
  return `/guardians/${encodeURIComponent(guardianId)}/`;
}

export function guardianRegistryDocument(registry: GuardianRegistry): GuardianRegistryDocument {
  return {
    schema: GUARDIAN_REGISTRY_SCHEMA,
    version: 'v1',
    boundary: GUARDIAN_BOUNDARY,
    notes: GUARDIAN_REGISTRY_NOTES,
    guardian_count: registry.guardians.length,
    guardians: registry.guardians.map((g) => ({
      registry_number: g.registry_number,
      guardian_id: g.guardian_id,
      page: guardianPageUrl(g.guardian_id),
      public_key_sha256: g.public_key_sha256,
      guardian_type: g.guardian_type,
      application_mode: g.application_mode,
      declared_intent: { words_of: 'the guardian', text: g.declared_intent },
      status: g.status,
      status_set_by: ref(g.history[g.history.length - 1]!.record_id),
      history: g.history.map((h) => ({ status: h.status, ...ref(h.record_id) })),
      signed_records: g.signed_records.map(ref),
    })),
    ignored: registry.ignored.map((i) => ({ ...ref(i.record_id), guardian_id: i.guardian_id, reason: i.reason })),
  };
}

/** The published text: two-space JSON and a final newline; a function of the records alone (no build time). */
export function guardianRegistryText(registry: GuardianRegistry): string {
  return JSON.stringify(guardianRegistryDocument(registry), null, 2) + '\n';
}
