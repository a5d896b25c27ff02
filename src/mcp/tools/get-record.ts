/**
 * get_record: one record as published: its raw bytes (checked against the index's sha256), its index entry, its
 * verdict as the archive states it, its log leaf, and its relations: what it corrects and what supersedes it, its
 * classification (effective, original and every update naming it: the index entry's `classification`), what it
 * reclassifies when it is a classification update, and its guardian verification result (the index entry's
 * `guardian`). The record itself comes back under "submitted": the submitter's words; so does each classification
 * update's proposer, reason and basis (the index's own `submitted`).
 */
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { SUBMITTED_NOTE, submittedSchema } from '../submitter-text.ts';
import { recordLinkOf } from '../../core/record/record-chain-fields.ts';
import { GUARDIAN_REGISTRY_PATH, guardianPageUrl } from '../../core/publish/archive-views.ts';
import { nullable, publishedDefinition } from '../schema-defs.ts';
import type { IndexEntry } from '../site-client.ts';
import { render, S, stringArg, ToolInputError, type ArchiveTool } from '../tool.ts';

const ID = /^[A-Za-z0-9._-]{1,200}$/;
const INDEX_SCHEMA = '/api/public-index-schema.v1.json';

const objectOrNull = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The guardian result as the index entry gives it, with the guardian's page and the registry's address. */
const guardianSchema = {
  ...publishedDefinition(INDEX_SCHEMA, 'guardian'),
  properties: {
    ...(publishedDefinition(INDEX_SCHEMA, 'guardian').properties as Record<string, unknown>),
    page: S.nstr('the guardian\'s page on the site (null when the key is not registered)'),
    registry: S.str(`the guardian registry (${GUARDIAN_REGISTRY_PATH})`),
  },
  required: [...(publishedDefinition(INDEX_SCHEMA, 'guardian').required as string[]), 'page', 'registry'],
};

/** Ids a record names as those it corrects (record-chain corrections: target.record_id), when the index lists them. */
function correctsOf(record: Record<string, unknown>, listed: ReadonlyMap<string, IndexEntry>): string[] {
  const target = record.target as Record<string, unknown> | undefined;
  const ids = new Set<string>();
  if (target && typeof target === 'object' && typeof target.record_id === 'string') ids.add(target.record_id);
  if (target && typeof target === 'object' && typeof target.submission_sha256 === 'string') {
    for (const e of listed.values()) if (e.submission_sha256 === target.submission_sha256) ids.add(e.id);
  }
  return [...ids].filter((id) => listed.has(id));
}

export const getRecord: ArchiveTool = {
  name: 'get_record',
  title: 'Read one record',
  description:
    'Read one archived record by id: the raw record (under "submitted": the submitter\'s words, untrusted), whether its bytes match the public index\'s sha256, its index entry, the archive\'s verdict on it (status, Claim Gate status, whether it counts as attestation), its transparency-log leaf, and its relations (what it corrects, what supersedes it, its effective and original classification with every classification update naming it — each update\'s proposer, reason and basis under "submitted" —, what it reclassifies, and its guardian verification result, which proves key possession only). Prove inclusion with verify_inclusion.',
  readOnly: true,
  inputSchema: S.obj({ id: S.str('the record id, e.g. echo-2026-01-14-000001', { pattern: ID.source }) }, ['id']),
  outputSchema: S.obj(
    {
      id: S.str('the record id'),
      url: S.str('the raw record\'s URL'),
      sha256: S.str('SHA-256 of the bytes served'),
      bytes_match_index: S.bool('the bytes hash to the index entry\'s sha256'),
      index_entry: { type: 'object', description: 'the public index\'s entry, as published (its own "submitted" holds the submitter\'s words)' },
      verdict: S.obj(
        {
          listed: S.bool('the public index lists it (the build lists only records the validator accepted)'),
          archive_status: S.nstr('the record\'s archive status'),
          claim_gate_status: S.nstr('the Claim Gate status of its own gate output (index reading)'),
          claim_gate_allowed_level: S.nstr('the level its gate output allows'),
          counts_as_attestation: S.bool('whether it counts as attestation'),
          withdrawn: S.bool('withdrawn by its submitter'),
          historical_only_level: S.bool('it states a historical-only level'),
        },
        ['listed', 'archive_status', 'claim_gate_status', 'claim_gate_allowed_level', 'counts_as_attestation', 'withdrawn', 'historical_only_level'],
      ),
      log: S.obj({ leaf_index: { type: ['integer', 'null'], description: 'its transparency-log leaf (null: not logged yet)' } }, ['leaf_index']),
      relations: S.obj(
        {
          corrects: S.arr({ type: 'string' }, 'ids of listed records it corrects'),
          superseded_by: S.arr({ type: 'string' }, 'ids of the records that supersede it'),
          corrected_by: S.arr({ type: 'string' }, 'ids of listed corrections that name it'),
          classification: nullable(
            publishedDefinition(INDEX_SCHEMA, 'classification'),
            'the index entry\'s classification (/api/public-index-schema.v1.json): the effective and the original classification and every classification update naming the record, oldest first, applied or not and why; each update\'s proposer, reason and basis under its "submitted" (the proposer\'s words, untrusted). Null when no update names the record.',
          ),
          reclassifies: S.nstr('for a classification update: the listed record it names (its effect is in that record\'s classification); else null'),
          guardian: nullable(
            guardianSchema,
            'the index entry\'s guardian verification result (it proves key possession only: no authority, level or count), with the guardian\'s page; null when the record carries no guardian proof and no registered key signed it',
          ),
        },
        ['corrects', 'superseded_by', 'corrected_by', 'classification', 'reclassifies', 'guardian'],
      ),
      submitted: submittedSchema({ record: { description: 'the raw record, parsed (null when it is not JSON)' }, record_text: S.str('the raw record\'s exact text') }),
      note: S.str('how to read the answer'),
    },
    ['id', 'url', 'sha256', 'bytes_match_index', 'index_entry', 'verdict', 'log', 'relations', 'submitted', 'note'],
  ),
  async run(args, ctx) {
    const id = stringArg(args, 'id');
    if (!id || !ID.test(id)) throw new ToolInputError('"id" must be a record id such as echo-2026-01-14-000001');
    const index = await ctx.site.publicIndex();
    const entry = index.byId.get(id);
    if (!entry) throw new ToolInputError(`the public index lists no record ${id} (${index.record_count} records listed)`);
    const raw = await ctx.site.get(entry.url);
    const sha256 = sha256Hex(raw.bytes);
    const text = Buffer.from(raw.bytes).toString('utf8');
    const parsed = parseStrictJson(raw.bytes);
    const record = parsed.isObject ? (parsed.value as Record<string, unknown>) : null;
    const classification = objectOrNull(entry.classification);
    const guardian = objectOrNull(entry.guardian) as (Record<string, unknown> & { summary?: unknown }) | null;
    const reclassifies = record ? recordLinkOf(record, 'reclassifies')?.record_id : undefined;
    const structured = {
      id,
      url: raw.url,
      sha256,
      bytes_match_index: sha256 === entry.sha256,
      index_entry: entry,
      verdict: {
        listed: true,
        archive_status: entry.archive_status ?? null,
        claim_gate_status: (entry.claim_gate_status as string | null | undefined) ?? null,
        claim_gate_allowed_level: (entry.claim_gate_allowed_level as string | null | undefined) ?? null,
        counts_as_attestation: entry.counts_as_attestation === true,
        withdrawn: entry.withdrawn === true,
        historical_only_level: entry.historical_only_level === true,
      },
      log: { leaf_index: typeof entry.leaf_index === 'number' ? entry.leaf_index : null },
      relations: {
        corrects: record ? correctsOf(record, index.byId) : [],
        superseded_by: Array.isArray(entry.superseded_by) ? entry.superseded_by.filter((x): x is string => typeof x === 'string') : [],
        corrected_by: (entry.superseded_by ?? []).filter((x) => index.byId.get(x)?.record_type === 'correction'),
        classification,
        reclassifies: reclassifies !== undefined && index.byId.has(reclassifies) ? reclassifies : null,
        guardian: guardian && {
          ...guardian,
          page: typeof guardian.registry_number === 'string' && typeof guardian.guardian_id === 'string' ? guardianPageUrl(guardian.guardian_id) : null,
          registry: GUARDIAN_REGISTRY_PATH,
        },
      },
      submitted: { record, record_text: text },
      note: SUBMITTED_NOTE,
    };
    const words = `${id}: ${structured.bytes_match_index ? 'its bytes match the public index' : `its bytes hash to ${sha256}, not the index's ${entry.sha256} (the site may be mid-publication)`}; archive status ${structured.verdict.archive_status ?? 'not stated'}${structured.log.leaf_index !== null ? `, log leaf ${structured.log.leaf_index}` : ', not in the log yet'}${classification ? `; ${(classification.history as unknown[]).length} classification update(s) name it` : ''}${structured.relations.guardian ? `; guardian: ${String(structured.relations.guardian.summary)}` : ''}. ${SUBMITTED_NOTE}`;
    return { structured, text: render(words, structured) };
  },
};
