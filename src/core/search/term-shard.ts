/**
 * One shard of the search index (format.ts) as the reader holds it: the shard's terms file of every segment, merged
 * into one list of terms in order, found by binary search (a word, or the range of terms a prefix starts), and each
 * term's postings (its parts in the segments, in segment order) decoded on first use and kept.
 */
import type { TermShardFile } from './format.ts';

export interface Postings {
  /** Document numbers, ascending. */
  ordinals: Int32Array;
  /** The term's impact (1…15) in each of them. */
  impacts: Uint8Array;
}

export class TermShard {
  private readonly terms: readonly string[];
  /** Each term's encoded postings, one part per segment that has the term (each part's gaps count from −1). */
  private readonly encoded: readonly (readonly (readonly number[])[])[];
  private readonly counts: readonly number[];
  private readonly decoded: (Postings | undefined)[];

  /** The shard from its terms file in each segment, in segment order (undefined: the segment has no such file). */
  constructor(files: readonly (TermShardFile | undefined)[]) {
    const parts = new Map<string, number[][]>();
    for (const file of files) {
      file?.terms.forEach((term, i) => {
        const list = parts.get(term);
        if (list) list.push(file.postings[i]!);
        else parts.set(term, [file.postings[i]!]);
      });
    }
    // UTF-16 order, as the files are (a reader's binary search compares with <).
    this.terms = [...parts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.encoded = this.terms.map((t) => parts.get(t)!);
    this.counts = this.encoded.map((p) => p.reduce((n, part) => n + part.length, 0));
    this.decoded = new Array(this.terms.length);
  }

  get size(): number {
    return this.terms.length;
  }

  termAt(i: number): string {
    return this.terms[i]!;
  }

  /** How many documents have the term at `i`. */
  documentsAt(i: number): number {
    return this.counts[i]!;
  }

  /** The first place whose term is not below `word`. */
  private lowerBound(word: string): number {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The place of `word`, or −1. */
  indexOf(word: string): number {
    const i = this.lowerBound(word);
    return this.terms[i] === word ? i : -1;
  }

  /** The places [start, end) of the terms that start with `prefix` (the word itself first, when it is a term). */
  prefixRange(prefix: string): [number, number] {
    const start = this.lowerBound(prefix);
    let end = start;
    while (end < this.terms.length && this.terms[end]!.startsWith(prefix)) end++;
    return [start, end];
  }

  postingsAt(i: number): Postings {
    let p = this.decoded[i];
    if (p === undefined) {
      const ordinals = new Int32Array(this.counts[i]!);
      const impacts = new Uint8Array(ordinals.length);
      let k = 0;
      // Segments hold ascending ranges of documents, so their parts in order are one ascending list.
      for (const part of this.encoded[i]!) {
        let at = -1;
        for (const v of part) {
          at += Math.floor(v / 16);
          ordinals[k] = at;
          impacts[k++] = v % 16;
        }
      }
      this.decoded[i] = p = { ordinals, impacts };
    }
    return p;
  }

  /** Every term with its number of documents (typo candidates). */
  *entries(): Generator<[term: string, documents: number]> {
    for (let i = 0; i < this.terms.length; i++) yield [this.terms[i]!, this.counts[i]!];
  }
}
