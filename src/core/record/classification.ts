/**
 * Classification updates never rewrite their target (DECISIONS 26, docs/guardians.md section 4): the build works out
 * each record's effective classification — its own independence_class, origin_classification and
 * do_not_count_as_attestation, overlaid by each classification_update that names it, in archive order — and the
 * index, the pages and the counts read that. The target's file, hash and log leaf stay as they are.
 */
import { isDeepStrictEqual } from 'node:util';
import { recordChainOf, signedContentOf } from './record-chain-fields.ts';
import { inForce } from '../guardian/registry.ts';

type Json = Record<string, unknown>;

/** The fields a classification update may change. */
export const CLASSIFICATION_FIELDS = ['independence_class', 'origin_classification', 'do_not_count_as_attestation'] as const;
export type ClassificationField = (typeof CLASSIFICATION_FIELDS)[number];
export type Classification = Partial<Record<ClassificationField, unknown>>;

export interface ClassificationChange {
  /** The classification_update record. */
  record_id: string;
  /** Who proposed it, as its agent_identity says (self-reported). */
  proposed_by: string;
  /** Archive date of the update record (when the archive accepted it), or null for a record without one. */
  accepted_on: string | null;
  previous: Classification;
  proposed: Classification;
  /** The proposer's words. */
  reason: string;
  basis: string;
  applied: boolean;
  /** Why it was not applied, in plain words. */
  not_applied_because?: string;
}

export interface ClassificationView {
  original: Classification;
  effective: Classification;
  history: ClassificationChange[];
}

export interface ClassifiedRecord {
  id: string;
  /** SHA-256 of the record file's exact bytes. */
  sha256: string;
  archiveDate: string | null;
  record: Json;
}

const objectOf = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A record's own classification: the fields it has of CLASSIFICATION_FIELDS. */
export function classificationOf(record: Json): Classification {
  return Object.fromEntries(CLASSIFICATION_FIELDS.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));
}

/** Only the classification fields of a submitted classification object (closed by its schema; this keeps it so). */
function classificationIn(value: unknown): Classification {
  return classificationOf(objectOf(value) ?? {});
}

/** What a classification_update record proposes, from its signed content; undefined for any other record. */
export function classificationUpdateOf(
  record: Json,
): { target_record_id: string; target_record_sha256: string; content: Json; proposedBy: string } | undefined {
  if (recordChainOf(record)?.record_type !== 'classification_update') return undefined;
  const signed = signedContentOf(record);
  const content = objectOf(signed?.classification_update_content);
  if (!content || typeof content.target_record_id !== 'string' || typeof content.target_record_sha256 !== 'string') return undefined;
  const proposedBy = str(objectOf(signed!.agent_identity)?.name_or_model) || 'not stated';
  return { target_record_id: content.target_record_id, target_record_sha256: content.target_record_sha256, content, proposedBy };
}

/** Record id → its classification view, for every record that some update names; `records` in archive order. */
export function classificationViews(records: readonly ClassifiedRecord[]): Map<string, ClassificationView> {
  const byId = new Map(records.map((r, i) => [r.id, { r, i }]));
  const views = new Map<string, ClassificationView>();
  records.forEach(({ id, record, archiveDate }, i) => {
    const update = classificationUpdateOf(record);
    if (!update || !inForce(record)) return;
    const target = byId.get(update.target_record_id);
    const previous = classificationIn(update.content.previous_classification);
    const proposed = classificationIn(update.content.new_classification);
    const change: ClassificationChange = {
      record_id: id,
      proposed_by: update.proposedBy,
      accepted_on: archiveDate,
      previous,
      proposed,
      reason: str(update.content.classification_reason),
      basis: str(update.content.evidence_or_review_basis),
      applied: false,
    };
    if (!target) return; // names no archived record: there is no page or index entry to show it on
    let view = views.get(target.r.id);
    if (!view) {
      const own = classificationOf(target.r.record);
      view = { original: own, effective: { ...own }, history: [] };
      views.set(target.r.id, view);
    }
    view.history.push(change);
    if (target.i > i) change.not_applied_because = 'it comes before the record it names in the archive';
    else if (target.r.sha256 !== update.target_record_sha256) {
      change.not_applied_because = `it names the record's SHA-256 as ${update.target_record_sha256}, but the file's is ${target.r.sha256}`;
    } else {
      const stale = (Object.keys(previous) as ClassificationField[]).filter((f) => !isDeepStrictEqual(previous[f], view!.effective[f]));
      if (stale.length > 0) change.not_applied_because = `its previous classification of ${stale.join(', ')} is not the record's classification at the time`;
      else if (Object.keys(proposed).length === 0) change.not_applied_because = 'it proposes no change';
      // DECISIONS 18: an update may take a record out of the counts, never put one in.
      else if (proposed.do_not_count_as_attestation === false) change.not_applied_because = 'a classification update can take a record out of the counts, never put it back in';
    }
    if (change.not_applied_because === undefined) {
      change.applied = true;
      view.effective = { ...view.effective, ...proposed };
    }
  });
  return views;
}

/** The record with its effective classification in place of its own (what counts and facets read); the same object when unchanged. */
export function withEffectiveClassification(record: Json, view: Pick<ClassificationView, 'effective' | 'original'> | undefined): Json {
  if (!view || isDeepStrictEqual(view.effective, view.original)) return record;
  const out: Json = { ...record };
  for (const f of CLASSIFICATION_FIELDS) {
    if (view.effective[f] === undefined) delete out[f];
    else out[f] = view.effective[f];
  }
  return out;
}
