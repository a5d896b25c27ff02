/**
 * Search that forgives a typo: a query word that is not a word of the index is replaced by the nearest word of the
 * index (one edit for words of 4 to 7 letters, two from 8; none below 4), when that finds more records. The
 * candidates are the index's words that share the word's first letters (its shard, words.ts): a typo is rarely in
 * the first three letters, and one file holds them all.
 */

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
  if (max === 0) return undefined;
  const length = [...w].length;
  let best: { word: string; edits: number; count: number } | undefined;
  for (const [c, count] of candidates) {
    // Cheap bound first: words whose lengths differ by more than the edits allowed cannot be near.
    if (Math.abs([...c].length - length) > max) continue;
    const edits = editDistance(w, c);
    if (edits > max) continue;
    if (!best || edits < best.edits || (edits === best.edits && (count > best.count || (count === best.count && c < best.word)))) best = { word: c, edits, count };
  }
  return best?.word;
}
