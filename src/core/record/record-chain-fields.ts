/**
 * What an archived record-chain record keeps readable in `extensions.record_chain` (DECISIONS 16 and 19), and how
 * every caller reads it: intake writes these fields (src/intake/to-echo-record.ts), the public index, the site's
 * facets and record pages read them. One place, so that writer and readers cannot drift apart.
 *
 *   extensions.record_chain.record_type   echo | verification | propagation | correction | context_insufficient_notice |
 *                                         guardian_application | guardian_retirement | classification_update
 *   extensions.record_chain.claim         the submitter's current verification claim (verification claim model),
 *                                         its keys made safe for rule 7 (extensionSafeKeys)
 *   extensions.record_chain.corrects      for a correction: { record_id, submission_sha256?, effect } — the archive
 *                                         record it corrects, resolved at accept
 *   extensions.record_chain.proof         the submitter's Ed25519 proof over record_jcs (signingKeyOf checks it)
 *   extensions.record_chain.application   for a guardian retirement: { record_id, record_sha256 } of the archived
 *                                         guardian application it retires, checked at accept (docs/guardians.md)
 *   extensions.record_chain.reclassifies  for a classification update: { record_id, record_sha256 } of the record it
 *                                         proposes to reclassify, checked at accept (the proposal itself is read
 *                                         from record_jcs: src/core/record/classification.ts)
 */
import { checkSignature } from '../crypto/ed25519.ts';
import { sha256Hex } from '../crypto/sha256.ts';
import { RECORD_TYPES, type RecordType } from '../record-chain/types.ts';
import { forbiddenWordsIn } from '../rules/cross/extensions-keys.ts';

type Json = Record<string, unknown>;

const objectOf = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** `extensions.record_chain` of a record, when it is an object. */
export function recordChainOf(record: Json): Json | undefined {
  return objectOf(objectOf(record.extensions)?.record_chain);
}

/** The record-chain record type a record keeps (DECISIONS 19), or null for any other record or an unknown value. */
export function recordTypeOf(record: Json): RecordType | null {
  const type = recordChainOf(record)?.record_type;
  return typeof type === 'string' && (RECORD_TYPES as readonly string[]).includes(type) ? (type as RecordType) : null;
}

/** The submitter's verification claim a record keeps (DECISIONS 19), when it has one. */
export function claimOf(record: Json): Json | undefined {
  return objectOf(recordChainOf(record)?.claim);
}

/** The dimensions of the verification claim model, in the model's order (schemas/verification-claim-model.v1.json). */
export const CLAIM_DIMENSIONS = [
  'digital_profile',
  'relationships_checked',
  'physical_observation',
  'external_witness',
  'coverage_scope',
  'limitations',
  'claims_not_made',
  'corrections_or_supersession_checked',
] as const;

export const CORRECTION_EFFECTS = ['corrects_statement', 'withdraws_record'] as const;
export type CorrectionEffect = (typeof CORRECTION_EFFECTS)[number];

export interface CorrectionLink {
  /** The archive id of the corrected record. */
  record_id: string;
  /** The corrected record's submission_sha256, when it was a record-chain record. */
  submission_sha256?: string;
  effect: CorrectionEffect;
}

/** What a correction record says it corrects (`extensions.record_chain.corrects`), when it is well formed. */
export function correctionOf(record: Json): CorrectionLink | undefined {
  if (recordTypeOf(record) !== 'correction') return undefined;
  const corrects = objectOf(recordChainOf(record)?.corrects);
  const id = corrects?.record_id;
  const effect = corrects?.effect;
  if (typeof id !== 'string' || id === '' || !(CORRECTION_EFFECTS as readonly unknown[]).includes(effect)) return undefined;
  const sha = corrects!.submission_sha256;
  return { record_id: id, ...(typeof sha === 'string' ? { submission_sha256: sha } : {}), effect: effect as CorrectionEffect };
}

/** An archived record named by id and by the SHA-256 of its file's exact bytes (as the public index lists them). */
export interface RecordLink {
  record_id: string;
  record_sha256: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * What a guardian retirement retires (`application`) or a classification update names (`reclassifies`), as intake
 * wrote it at accept; undefined for any other record or a malformed link.
 */
export function recordLinkOf(record: Json, link: 'application' | 'reclassifies'): RecordLink | undefined {
  const type = recordTypeOf(record);
  if (type !== (link === 'application' ? 'guardian_retirement' : 'classification_update')) return undefined;
  const value = objectOf(recordChainOf(record)?.[link]);
  const id = value?.record_id;
  const sha = value?.record_sha256;
  if (typeof id !== 'string' || id === '' || typeof sha !== 'string' || !SHA256_HEX.test(sha)) return undefined;
  return { record_id: id, record_sha256: sha };
}

/**
 * The public key (base64) that signed a record-chain record, only when its proof holds on the archived file alone:
 * SHA-256 of record_jcs = the proof's content hash = submission_sha256, and the Ed25519 signature by that key.
 * Undefined for a record without a record-chain proof, or with one that does not hold.
 */
export function signingKeyOf(record: Json): string | undefined {
  const chain = recordChainOf(record);
  const proof = objectOf(chain?.proof);
  const jcs = chain?.record_jcs;
  const key = proof?.public_key;
  const hash = proof?.content_hash_sha256;
  const signature = proof?.signature;
  if (typeof jcs !== 'string' || typeof key !== 'string' || typeof hash !== 'string' || typeof signature !== 'string') return undefined;
  if (sha256Hex(jcs) !== hash || chain!.submission_sha256 !== hash) return undefined;
  return checkSignature(key, hash, signature).ok ? key : undefined;
}

/**
 * Replacements for the words rule 7 forbids in extension keys (spec 2.1 rule 7, DECISIONS 5), used when submitted
 * data is copied into `extensions`: a key keeps its sense in other words (e.g. `verification_claim` → `check_claim`).
 */
const SAFE_WORDS: Readonly<Record<string, string>> = {
  authority: 'standing',
  canonical: 'standard_form',
  amend: 'revise',
  verification: 'check',
  attestation: 'witness_statement',
  investment: 'funding',
  instruction: 'direction',
  governance: 'oversight',
};

function safeKey(key: string, taken: ReadonlySet<string>): string {
  let out = key;
  for (const word of forbiddenWordsIn(key)) out = out.replace(new RegExp(word, 'gi'), SAFE_WORDS[word]!);
  if (out === key) return key;
  let candidate = out;
  for (let n = 2; taken.has(candidate); n++) candidate = `${out}_${n}`;
  return candidate;
}

/** A deep copy of `value` whose keys, at every depth, contain none of rule 7's words (values are kept as they are). */
export function extensionSafeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(extensionSafeKeys);
  const object = objectOf(value);
  if (!object) return value;
  const out: Json = {};
  const taken = new Set(Object.keys(object).filter((k) => forbiddenWordsIn(k).length === 0));
  for (const [key, v] of Object.entries(object)) {
    const safe = safeKey(key, taken);
    taken.add(safe);
    out[safe] = extensionSafeKeys(v);
  }
  return out;
}

/**
 * The signed content of a record-chain record (record_jcs, parsed), only when its proof holds on the archived file
 * (signingKeyOf): what derived views read instead of copies in `extensions`, whose keys rule 7 restricts.
 */
export function signedContentOf(record: Json): Json | undefined {
  if (signingKeyOf(record) === undefined) return undefined;
  try {
    return objectOf(JSON.parse(recordChainOf(record)!.record_jcs as string));
  } catch {
    return undefined;
  }
}
