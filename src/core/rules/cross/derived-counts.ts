import { asObject, violation, type RecordRule } from '../rule.ts';

/** DECISIONS 9: the legacy count flag is derived from origin_classification and must agree with it. */
export const derivedCounts: RecordRule = {
  id: 'cross/derived-counts',
  summary:
    'When origin_classification is present, counts_as_independent_attestation equals its counts_as_formal_independent_attestation (DECISIONS 9).',
  check({ record }) {
    const origin = asObject(record.origin_classification);
    const legacy = record.counts_as_independent_attestation;
    const derived = origin?.counts_as_formal_independent_attestation;
    if (typeof legacy !== 'boolean' || typeof derived !== 'boolean' || legacy === derived) return [];
    return [
      violation(
        this.id,
        '/counts_as_independent_attestation',
        `counts_as_independent_attestation is ${legacy} but origin_classification.counts_as_formal_independent_attestation is ${derived}`,
        `The legacy flag is derived from origin_classification: set counts_as_independent_attestation to ${derived}, or remove it.`,
      ),
    ];
  },
};
