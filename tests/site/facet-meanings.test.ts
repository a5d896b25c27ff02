/** The readers' words for verification levels cover exactly the schema's levels, and say "older records only" where the core says so. */
import { describe, expect, it } from 'vitest';
import { isHistoricalOnlyLevel, VERIFICATION_LEVELS } from '../../src/core/record/vocabulary.ts';
import { facetValueMeaning, VERIFICATION_LEVEL_MEANINGS } from '../../src/site/model/facets.ts';

describe('verification level meanings', () => {
  it('one for each level of the schema, none besides', () => {
    expect(Object.keys(VERIFICATION_LEVEL_MEANINGS).sort()).toEqual([...VERIFICATION_LEVELS].sort());
  });

  it.each([...VERIFICATION_LEVELS])('%s says whether it is kept for older records only, as the core does', (level) => {
    expect(facetValueMeaning('verification_level', level)!.endsWith('(kept for older records only).')).toBe(isHistoricalOnlyLevel(level));
  });
});
