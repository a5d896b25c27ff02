import { violation, type SchemaRule } from '../rule.ts';

const HINT =
  'With agency_level A6_unknown nobody can tell how the record came about, so it cannot claim independence or attestation: drop the claim, or state the real agency level if it is known.';

/** "independence_class unsolicited_independent", "counts_as_independent_attestation: true": the claim as written. */
function claimOf(pointer: string, value: unknown): string {
  const path = pointer.slice(1).split('/').join('.');
  return typeof value === 'boolean' ? `${path}: ${value}` : `${path} ${String(value)}`;
}

/**
 * Spec 2.1 cross-field rule 8 with DECISIONS 6. The condition is the schema's (`$defs/unknown_agency`: each claim a
 * `not`); one finding per claim, at the claim.
 */
export const unknownAgency: SchemaRule = {
  id: 'cross/unknown-agency',
  summary:
    'A record whose discovery_provenance.agency_level is A6_unknown claims no independence or attestation (spec 2.1 rule 8, DECISIONS 6).',
  explain(errors) {
    return errors.map((e) => violation(this.id, e.instancePath, `a record with agency_level A6_unknown must not claim ${claimOf(e.instancePath, e.data)}`, HINT));
  },
};
