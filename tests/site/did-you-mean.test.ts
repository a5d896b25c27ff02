/** Search's typo tolerance (src/site/client/did-you-mean.ts): the nearest word of the index within its allowed edits. */
import { describe, expect, it } from 'vitest';
import { allowedEdits, correctedQuery, editDistance, nearestWord, type PagefindLike } from '../../src/site/client/did-you-mean.ts';

describe('did you mean', () => {
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
  });

  it('corrects a query word the index lacks, from the words Pagefind finds by its leading letters', async () => {
    const pages = ['the manifest lists files', 'a manifest again', 'unrelated text'];
    const pf: PagefindLike = {
      search: async (q: string) => ({
        results: pages.filter((p) => p.split(' ').some((w) => w.startsWith(q))).map((content) => ({ data: async () => ({ content }) })),
      }),
    };
    expect(await correctedQuery(pf, 'manifst files')).toBe('manifest files');
    expect(await correctedQuery(pf, 'manifest files')).toBeUndefined();
  });
});
