/**
 * Search that forgives a typo: when a query word is not a word of the index, the nearest word of the index (one
 * edit for words of 4 to 7 letters, two from 8) takes its place. The index's vocabulary near the word is read from
 * Pagefind itself: a search for the word's leading letters (Pagefind matches the last word as a prefix) returns the
 * pages with words that begin like it, and their text gives the candidates. Shared by the search page
 * (src/site/client/search.ts) and the measured query set (scripts/lib/search-queries.ts, tests/build/search-typos.test.ts).
 */

export interface PagefindLike {
  search(q: string, o?: Record<string, unknown>): Promise<{ results: { data(): Promise<{ content?: string }> }[] } | null>;
}

/** Edit distance with adjacent transpositions (optimal string alignment), in code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

/** How many edits a word of this length may be from the word meant: none below 4 letters. */
export function allowedEdits(word: string): number {
  const n = [...word].length;
  return n < 4 ? 0 : n < 8 ? 1 : 2;
}

/**
 * The candidate nearest to `word` within its allowed edits (fewest edits, then the most frequent, then code-point
 * order), or undefined when `word` is itself a candidate (a word of the index) or none is near.
 */
export function nearestWord(word: string, candidates: ReadonlyMap<string, number>): string | undefined {
  const w = word.toLowerCase();
  if (candidates.has(w)) return undefined;
  const max = allowedEdits(w);
  let best: { word: string; edits: number; count: number } | undefined;
  for (const [c, count] of candidates) {
    const edits = editDistance(w, c);
    if (edits > max) continue;
    if (!best || edits < best.edits || (edits === best.edits && (count > best.count || (count === best.count && c < best.word)))) best = { word: c, edits, count };
  }
  return best?.word;
}

const WORDS = /[\p{L}\p{N}]+/gu;
/** Pages read per prefix for candidate words. */
const PAGES = 12;

/** The index's words that begin like `word` (with their frequencies in the pages read), from Pagefind. */
async function wordsNear(pf: PagefindLike, word: string, options: Record<string, unknown>): Promise<Map<string, number>> {
  const chars = [...word];
  const words = new Map<string, number>();
  // The longest prefix that still finds pages, down to three letters (a typo is usually not in the first letters).
  for (let k = chars.length - 1; k >= 3; k--) {
    const prefix = chars.slice(0, k).join('');
    const found = await pf.search(prefix, options);
    const results = found?.results ?? [];
    if (results.length === 0) continue;
    for (const r of results.slice(0, PAGES)) {
      const { content = '' } = await r.data();
      for (const [m] of content.toLowerCase().matchAll(WORDS)) if (m.startsWith(prefix)) words.set(m, (words.get(m) ?? 0) + 1);
    }
    const near = [...words.keys()].some((c) => editDistance(word, c) <= allowedEdits(word));
    if (near) break;
  }
  return words;
}

/** The query with each word the index lacks replaced by its nearest word of the index, or undefined when none is. */
export async function correctedQuery(pf: PagefindLike, query: string, options: Record<string, unknown> = {}): Promise<string | undefined> {
  const parts = query.split(/(\s+)/);
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const word = parts[i]!.toLowerCase();
    if (!/^[\p{L}\p{N}]+$/u.test(word) || allowedEdits(word) === 0) continue;
    const exact = await pf.search(word, options);
    // A word of the index finds pages whose text has it (Pagefind also matches it as a prefix of longer words).
    if ((exact?.results.length ?? 0) > 0) {
      const first = await exact!.results[0]!.data();
      if ((first.content ?? '').toLowerCase().match(WORDS)?.includes(word)) continue;
    }
    const near = nearestWord(word, await wordsNear(pf, word, options));
    if (near !== undefined) {
      parts[i] = near;
      changed = true;
    }
  }
  return changed ? parts.join('') : undefined;
}
