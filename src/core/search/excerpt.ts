/**
 * Where a document's text matches a search: a window of about EXCERPT_WORDS words around the most matched words,
 * as plain-text pieces, the matches marked. No markup: the search page builds text nodes and <mark> elements from
 * the pieces, and the MCP server joins them into plain text, so the submitter's text never becomes HTML.
 */
import { WORD_RUNS, wordsOf } from './words.ts';

export const EXCERPT_WORDS = 36;

export interface ExcerptPiece {
  text: string;
  mark: boolean;
}


/**
 * The excerpt of `text` for the matched `terms` (index terms: lower case, NFKC) and, for the last query word, any
 * term starting with `prefix`.
 */
export function excerptOf(text: string, terms: ReadonlySet<string>, prefix?: string): ExcerptPiece[] {
  const spans: { start: number; end: number; hit: boolean }[] = [];
  for (const m of text.matchAll(WORD_RUNS)) {
    const hit = wordsOf(m[0]).some((w) => terms.has(w) || (prefix !== undefined && w.startsWith(prefix)));
    spans.push({ start: m.index, end: m.index + m[0].length, hit });
  }
  if (spans.length === 0) return text ? [{ text: text.slice(0, 300), mark: false }] : [];
  // The window with the most hits (the first such window), starting a few words before its first hit.
  let best = 0;
  let bestHits = -1;
  let hits = 0;
  for (let i = 0; i < spans.length; i++) {
    if (spans[i]!.hit) hits++;
    if (i >= EXCERPT_WORDS && spans[i - EXCERPT_WORDS]!.hit) hits--;
    const start = Math.max(0, i - EXCERPT_WORDS + 1);
    if (hits > bestHits) {
      bestHits = hits;
      best = start;
    }
  }
  if (bestHits > 0) {
    const firstHit = spans.findIndex((s, i) => i >= best && s.hit);
    best = Math.max(0, Math.min(firstHit - 3, spans.length - EXCERPT_WORDS));
  }
  const window = spans.slice(best, best + EXCERPT_WORDS);
  const pieces: ExcerptPiece[] = [];
  const push = (t: string, mark: boolean) => {
    if (t === '') return;
    const prev = pieces.at(-1);
    if (prev && prev.mark === mark) prev.text += t;
    else pieces.push({ text: t, mark });
  };
  let at = window[0]!.start;
  for (const s of window) {
    push(text.slice(at, s.start).replace(/\s+/g, ' '), false);
    push(text.slice(s.start, s.end), s.hit);
    at = s.end;
  }
  if (best > 0) pieces.unshift({ text: '… ', mark: false });
  if (best + EXCERPT_WORDS < spans.length) push(' …', false);
  return pieces;
}

/** The excerpt as plain text (the marks dropped). */
export function excerptText(pieces: readonly ExcerptPiece[]): string {
  return pieces.map((p) => p.text).join('');
}
