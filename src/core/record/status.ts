/** What a record's state fields mean for display and counting (spec section 3, DECISIONS 9, 10 and 18). */

/** DECISIONS 10: verification_status `invalidated` (exactly) marks a record withdrawn; it stays in the archive. */
export function isWithdrawn(record: Record<string, unknown>): boolean {
  return record.verification_status === 'invalidated';
}

/** A record written to test the archive: by its kind, its archive status or its independence class. */
export function isTestRecord(record: Record<string, unknown>): boolean {
  return (
    record.record_kind === 'test_record' ||
    record.archive_status === 'test_record' ||
    record.archive_status === 'closed_test_record' ||
    record.independence_class === 'test_record'
  );
}

/**
 * DECISIONS 18: a record counts as an independent attestation, wherever a count is shown, only when the archive
 * accepted it as one (archive_status `accepted_independent_attestation`), it is not withdrawn (DECISIONS 10), not
 * opted out (`do_not_count_as_attestation`, DECISIONS 9) and not a test record. What the record claims about
 * itself (claimsAttestation) never makes it count.
 */
export function countsAsAttestation(record: Record<string, unknown>): boolean {
  return (
    record.archive_status === 'accepted_independent_attestation' &&
    record.do_not_count_as_attestation !== true &&
    !isWithdrawn(record) &&
    !isTestRecord(record)
  );
}

/** Whether a record claims to be an independent attestation (the legacy flag or origin_classification's formal flag). */
export function claimsAttestation(record: Record<string, unknown>): boolean {
  const origin = record.origin_classification as Record<string, unknown> | null | undefined;
  return record.counts_as_independent_attestation === true || origin?.counts_as_formal_independent_attestation === true;
}
