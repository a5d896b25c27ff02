import { describe, expect, it } from 'vitest';
import { extensionsKeys } from '../../../src/core/rules/cross/extensions-keys.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText } from '../../helpers/records.ts';

const RULE = 'cross/extensions-keys';
// spec 2.1 cross-field rule 7, in the spec's order
const WORDS = ['authority', 'canonical', 'amend', 'verification', 'attestation', 'investment', 'instruction', 'governance'];

/** Column (1-based) of `"key"` on its line in the record's text. */
function keyPosition(text: string, key: string, fromLine = 1): { line: number; column: number } {
  const line = lineOf(text, `"${key}":`, fromLine);
  return { line, column: text.split('\n')[line - 1]!.indexOf(`"${key}":`) + 1 };
}

describe(RULE, () => {
  it('is the module of that id', () => expect(extensionsKeys.id).toBe(RULE));

  describe('harmless keys pass', () => {
    it('nested objects and arrays of the base record', () => {
      expect(ofRule(judge(echoWith({})), RULE)).toEqual([]);
    });

    it('forbidden words in values (not keys), and near-misses in keys', () => {
      const record = echoWith({
        '/extensions': {
          note: 'this record claims no authority, verification or attestation',
          list: ['governance', 'canonical'],
          author: 'x',
          amen: 1,
          verify_steps: 2,
          attest: true,
          invest: null,
          canon: { instruct: 'y' },
        },
      });
      expect(errors(judge(record))).toEqual([]);
    });

    it('an empty extensions object', () => {
      expect(errors(judge(echoWith({ '/extensions': {} })))).toEqual([]);
    });
  });

  describe('violations', () => {
    it('a top-level extensions key, pointed at the key', () => {
      const record = echoWith({ '/extensions/authority_note': 'x' });
      const diags = judge(record);
      expect(otherThan(errors(diags), RULE)).toEqual([]);
      const found = ofRule(diags, RULE);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: 'error', pointer: '/extensions/authority_note' });
      expect(found[0]!.message).toBe('extensions key "authority_note" contains the forbidden word(s) authority');
      expect(found[0]!.hint).toMatch(/may not mention authority in any sense \(even negated\)/);
      expect({ line: found[0]!.line, column: found[0]!.column }).toEqual(keyPosition(recordText(record), 'authority_note'));
    });

    it('not_independent_attestation is a violation, whatever the sense (DECISIONS 5)', () => {
      const record = echoWith({ '/extensions/not_independent_attestation': true });
      const found = ofRule(judge(record), RULE);
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/extensions/not_independent_attestation');
      expect(found[0]!.message).toBe('extensions key "not_independent_attestation" contains the forbidden word(s) attestation');
    });

    it.each(WORDS.flatMap((w) => [[w, `x_${w}_y`], [w, w.toUpperCase()], [w, `Is${w[0]!.toUpperCase()}${w.slice(1)}`]]))(
      'the word %s in key %s, case-insensitively',
      (word, key) => {
        const found = ofRule(judge(echoWith({ [`/extensions/${key}`]: 1 })), RULE);
        expect(found).toHaveLength(1);
        expect(found[0]!.message).toBe(`extensions key "${key}" contains the forbidden word(s) ${word}`);
      },
    );

    it('a key nested in objects', () => {
      const record = echoWith({ '/extensions/review_notes/Canonical_Source': 'mirror' });
      const found = ofRule(judge(record), RULE);
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/extensions/review_notes/Canonical_Source');
      expect(found[0]!.message).toContain('canonical');
      const text = recordText(record);
      expect({ line: found[0]!.line, column: found[0]!.column }).toEqual(keyPosition(text, 'Canonical_Source'));
    });

    it('a key inside an object inside an array', () => {
      const record = echoWith({
        '/extensions/review_notes/tags': ['fixture', { source_kind: 'mirror' }, { amendment_ref: 'r1', ok: true }],
      });
      const found = ofRule(judge(record), RULE);
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/extensions/review_notes/tags/2/amendment_ref');
      expect(found[0]!.message).toBe('extensions key "amendment_ref" contains the forbidden word(s) amend');
      expect({ line: found[0]!.line, column: found[0]!.column }).toEqual(keyPosition(recordText(record), 'amendment_ref'));
    });

    it('arrays of arrays', () => {
      const record = echoWith({ '/extensions/grid': [[{ a: 1 }], [{ b: { GOVERNANCE_model: 2 } }]] });
      const found = ofRule(judge(record), RULE);
      expect(found.map((d) => d.pointer)).toEqual(['/extensions/grid/1/0/b/GOVERNANCE_model']);
    });

    it('a flagged key whose value holds more flagged keys: every one is reported', () => {
      const record = echoWith({ '/extensions/investment_info': { instruction_set: { ok: 1, authority: 2 } } });
      const found = ofRule(judge(record), RULE);
      expect(found.map((d) => d.pointer)).toEqual([
        '/extensions/investment_info',
        '/extensions/investment_info/instruction_set',
        '/extensions/investment_info/instruction_set/authority',
      ]);
    });

    it('a key with several words lists them in the spec order', () => {
      const found = ofRule(judge(echoWith({ '/extensions/verification_attestation_authority': 1 })), RULE);
      expect(found[0]!.message).toBe(
        'extensions key "verification_attestation_authority" contains the forbidden word(s) authority, verification, attestation',
      );
    });

    it('escapes / and ~ in the pointer (RFC 6901)', () => {
      const record = echoWith({});
      (record.extensions as Record<string, unknown>)['a/governance~x'] = 1;
      const found = ofRule(judge(record), RULE);
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/extensions/a~1governance~0x');
      // the escaped pointer still finds the key in the text
      expect(found[0]!.line).toBe(lineOf(recordText(record), '"a/governance~x"'));
    });

    it('does not look at keys outside extensions', () => {
      const record = echoWith({ '/discovery_provenance/x_origin_classification_notes': { authority_note: 'fine here' } });
      expect(ofRule(judge(record), RULE)).toEqual([]);
    });
  });
});
