import { compareLevels } from '../../claim-gate/levels.ts';
import { comparableAllowedLevel, recordGateOutput } from '../../record/gate-output.ts';
import { asObject, asString, violation, type RecordRule } from '../rule.ts';

const ID = 'cross/failed-validation-claim';

/** V0 and V1 are orientation and boundary recognition (read_only_orientation, authority_boundary_recognition): no verification claim. */
const HIGHEST_WITHOUT_VERIFICATION = 'V1';

/**
 * A report whose generated_by.validation_result is FAIL (spec 3, 7) did not pass its validation: it cannot carry a
 * verification claim above the gate's level. With a comparable claim_gate_output.allowed_protocol_level,
 * cross/claim-gate-level already holds the claim to it; without one there is no gate level that supports any
 * verification claim, so verification_level may be at most V1.
 */
export const failedValidationClaim: RecordRule = {
  id: ID,
  summary:
    'A record whose generated_by.validation_result is FAIL claims no verification level above its claim gate output (and above V1 when it has none) (spec 3, 7).',
  check({ record }) {
    if (asObject(record.generated_by)?.validation_result !== 'FAIL') return [];
    if (comparableAllowedLevel(recordGateOutput(record)) !== undefined) return []; // cross/claim-gate-level's case
    const level = asString(record.verification_level);
    if (level === undefined || (compareLevels(level, HIGHEST_WITHOUT_VERIFICATION) ?? 0) <= 0) return [];
    return [
      violation(
        ID,
        '/verification_level',
        `verification_level "${level}" is a verification claim, but generated_by.validation_result is FAIL and the record has no claim gate level that allows it`,
        'A report that failed its validation supports no verification claim: lower verification_level to V1 or below (and its scope label with it), or fix the report, validate it again and record the passing result and the claim gate output.',
      ),
    ];
  },
};
