/**
 * The fixed query set for search's typo tolerance (src/core/search/typo.ts), over the project's records:
 * each misspelling with the word meant (one dropped, swapped or changed letter), and words of the index that must be
 * left alone. tests/build/built-site.test.ts measures it with scripts/lib/search-queries.ts.
 */
export const TYPO_QUERIES: readonly { typed: string; meant: string }[] = [
  { typed: 'manifst', meant: 'manifest' },
  { typed: 'verifcation', meant: 'verification' },
  { typed: 'summry', meant: 'summary' },
  { typed: 'understnading', meant: 'understanding' },
  { typed: 'archvie', meant: 'archive' },
];

/** Words of the index: no correction. */
export const WORDS_KEPT: readonly string[] = ['manifest', 'verification', 'archive', 'hash', 'understanding', 'summary'];
