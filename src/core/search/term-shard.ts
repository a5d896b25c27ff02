/**
 * One terms file of the search index (format.ts), as the reader holds it: terms in order, found by binary search
 * (a word, or the range of terms a prefix starts), and each term's postings decoded on first use and kept.
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
  private readonly encoded: readonly (readonly number[])[];
  private readonly decoded: (Postings | undefined)[];

  constructor(file: TermShardFile | undefined) {
    this.terms = file?.terms ?? [];
    this.encoded = file?.postings ?? [];
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
    return this.encoded[i]!.length;
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
      const encoded = this.encoded[i]!;
      const ordinals = new Int32Array(encoded.length);
      const impacts = new Uint8Array(encoded.length);
      let at = -1;
      for (let k = 0; k < encoded.length; k++) {
        const v = encoded[k]!;
        at += Math.floor(v / 16);
        ordinals[k] = at;
        impacts[k] = v % 16;
      }
      this.decoded[i] = p = { ordinals, impacts };
    }
    return p;
  }

  /** Every term with its number of documents (typo candidates). */
  *entries(): Generator<[term: string, documents: number]> {
    for (let i = 0; i < this.terms.length; i++) yield [this.terms[i]!, this.encoded[i]!.length];
  }
}
