/** Which records correct or supersede which, once per archive (DECISIONS 16). */
import { describe, expect, it } from 'vitest';
import { idsNamedIn, lifecycleLinks } from '../../src/core/record/lifecycle-links.ts';

const correction = (target: string) => ({ extensions: { record_chain: { record_type: 'correction', corrects: { record_id: target, effect: 'corrects_statement' } } } });

describe('lifecycleLinks', () => {
  it('links a correction and its target both ways, and counts it as superseding only a superseded target', () => {
    const links = lifecycleLinks([
      { id: 'old', record: { archive_status: 'superseded', superseded_reason: 'Superseded by fix.' } },
      { id: 'fix', record: correction('old') },
      { id: 'current', record: { archive_status: 'accepted_echo' } },
      { id: 'fix2', record: correction('current') },
      { id: 'dangling', record: correction('missing') },
    ]);
    expect(links.corrects).toEqual(new Map([['fix', 'old'], ['fix2', 'current']]));
    expect(links.correctedBy).toEqual(new Map([['old', ['fix']], ['current', ['fix2']]]));
    expect(links.supersededBy).toEqual(new Map([['old', ['fix']]]));
    expect(links.supersedes).toEqual(new Map([['fix', ['old']]]));
  });

  it('reads ids a superseded record\'s reason names, without itself, only for superseded records', () => {
    const links = lifecycleLinks([
      { id: 'a', record: { archive_status: 'superseded', superseded_reason: 'see b and a, and c' } },
      { id: 'b', record: {} },
      { id: 'c', record: { archive_status: 'rejected', superseded_reason: 'b' } },
    ]);
    expect(links.supersededBy).toEqual(new Map([['a', ['b', 'c']]]));
    expect(links.supersedes).toEqual(new Map([['b', ['a']], ['c', ['a']]]));
    expect(idsNamedIn('Superseded by echo-1.', new Set(['echo-1']))).toEqual(['echo-1']);
  });
});
