/** Search's typo tolerance (src/core/search/typo.ts): the nearest word of the index within its allowed edits. */
import { describe, expect, it } from 'vitest';
import { allowedEdits, editDistance, nearestWord } from '../../src/core/search/typo.ts';

describe('typo tolerance', () => {
  it('counts a dropped, changed or swapped letter as one edit', () => {
    expect(editDistance('manifst', 'manifest')).toBe(1);
    expect(editDistance('archvie', 'archive')).toBe(1);
    expect(editDistance('summry', 'summary')).toBe(1);
    expect(editDistance('cat', 'dog')).toBe(3);
    expect(allowedEdits('abc')).toBe(0);
    expect(allowedEdits('manifst')).toBe(1);
    expect(allowedEdits('understnading')).toBe(2);
  });

  it('picks the nearest, then the most frequent word; none for a word of the index or nothing near', () => {
    const words = new Map([['manifest', 9], ['manifests', 2], ['manifold', 1]]);
    expect(nearestWord('manifst', words)).toBe('manifest');
    expect(nearestWord('manifest', words)).toBeUndefined();
    expect(nearestWord('maxifxxt', words)).toBeUndefined();
    expect(nearestWord('mani', new Map([['mano', 1], ['many', 5]]))).toBe('many');
    expect(nearestWord('man', new Map([['mat', 1]]))).toBeUndefined();
  });
});
