/**
 * The words of the archive's search: how a text is cut into index terms, the same for the index (build-index.ts) and
 * for a query (search-index.ts), so that what is typed finds what was indexed. Pure and framework-free (the search
 * page bundles it).
 *
 * A word is a run of letters, marks and digits after NFKC normalisation, in lower case ("Line-endings" → "line",
 * "endings"). Scripts written without spaces between words (Han, Hiragana, Katakana) have each character as a word,
 * so that a query of a few characters finds the texts that hold them.
 */

/** What a word is made of, in one place: the cutter splits on anything else, the excerpts find runs of it. */
const WORD_CHARACTERS = '\\p{L}\\p{M}\\p{N}';
const SEPARATORS = new RegExp(`[^${WORD_CHARACTERS}]+`, 'u');
/** Runs of word characters in a text as written (before NFKC and lower case): where its words stand (excerpt.ts). */
export const WORD_RUNS = new RegExp(`[${WORD_CHARACTERS}]+`, 'gu');
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
/** Longer runs are cut: a 64-digit hash is one word, a pasted blob of base64 is not worth a term each. */
export const MAX_WORD_LENGTH = 80;

/** The index terms of `text`, in order, repeats kept. */
export function wordsOf(text: string): string[] {
  const normal = text.normalize('NFKC').toLowerCase();
  // Most texts have no unspaced script: one test of the whole text spares a test per word.
  const unspaced = UNSPACED.test(normal);
  const runs = normal.split(SEPARATORS);
  const out: string[] = [];
  for (const run of runs) {
    if (run === '') continue;
    if (unspaced && UNSPACED.test(run)) {
      // Characters of unspaced scripts one by one; other letters of the run (Latin in a Japanese sentence) stay together.
      for (const [part] of run.matchAll(UNSPACED_RUN)) out.push(cut(part));
    } else out.push(cut(run));
  }
  return out;
}

function cut(word: string): string {
  if (word.length <= MAX_WORD_LENGTH) return word;
  const chars = [...word];
  return chars.length > MAX_WORD_LENGTH ? chars.slice(0, MAX_WORD_LENGTH).join('') : word;
}
