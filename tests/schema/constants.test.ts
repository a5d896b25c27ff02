import { describe, expect, it } from 'vitest';
import { constantTrueFlags, requiredConstants } from '../../src/core/schema/constants.ts';

describe('requiredConstants (fixed values read from the schema documents)', () => {
  it('reads the five required boundary acknowledgements of spec 2.1, in order, without the optional ones', () => {
    expect(Object.entries(requiredConstants('/api/echo-record-schema.v3.json', 'boundary_acknowledgement'))).toEqual([
      ['bitcoin_originals_prevail', true],
      ['echo_is_not_authority', true],
      ['echo_is_not_verification_unless_claimed', true],
      ['mirror_is_not_amendment', true],
      ['homepage_only_is_insufficient_for_final_evaluation', true],
    ]);
  });

  it('follows a $ref into another document ($defs)', () => {
    expect(requiredConstants('/api/record-chain-echo-record-schema.v1.json', 'boundary')).toEqual({
      not_authority: true,
      not_amendment: true,
      not_endorsement: true,
      not_verification_unless_claimed: true,
      bitcoin_originals_prevail: true,
    });
  });

  it('reads required constants of a sub-schema document', () => {
    expect(requiredConstants('/api/discovery-provenance-schema.json')).toEqual({ schema: 'service.discovery-provenance.v1' });
  });

  it('refuses an unknown schema or property', () => {
    expect(() => requiredConstants('/api/no-such-schema.json')).toThrow(/not in the schema folder/);
    expect(() => requiredConstants('/api/echo-record-schema.v3.json', 'no_such_field')).toThrow(/has no property/);
  });
});

describe('constantTrueFlags (the top-level flags a record states, read from the schema)', () => {
  it('reads the Echo v3 record\'s five constant-true flags, in the schema\'s order, and nothing that is only required or constant false', () => {
    expect(Object.entries(constantTrueFlags('/api/echo-record-schema.v3.json'))).toEqual([
      ['not_authority', true],
      ['not_amendment', true],
      ['not_endorsement', true],
      ['bitcoin_originals_prevail', true],
      ['not_verification_unless_claimed', true],
    ]);
  });

  it('is empty for a schema with no constant-true property', () => {
    expect(constantTrueFlags('/api/discovery-provenance-schema.json')).toEqual({});
  });
});
