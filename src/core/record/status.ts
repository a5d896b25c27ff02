/** What a record's state fields mean for display and counting (spec section 3, DECISIONS 9 and 10). */

/** DECISIONS 10: verification_status `invalidated` (exactly) marks a record withdrawn; it stays in the archive. */
export function isWithdrawn(record: Record<string, unknown>): boolean {
  return record.verification_status === 'invalidated';
}

/**
 * Whether a record may be counted as an independent attestation anywhere it is shown: it claims to be one
 * (the legacy flag or origin_classification's formal flag), is not withdrawn, and has not opted out (DECISIONS 9).
 */
export function countsAsAttestation(record: Record<string, unknown>): boolean {
  if (record.do_not_count_as_attestation === true || isWithdrawn(record)) return false;
  return claimsAttestation(record);
}

/** Whether a record claims to be an independent attestation (the legacy flag or origin_classification's formal flag). */
export function claimsAttestation(record: Record<string, unknown>): boolean {
  const origin = record.origin_classification as Record<string, unknown> | null | undefined;
  return record.counts_as_independent_attestation === true || origin?.counts_as_formal_independent_attestation === true;
}
