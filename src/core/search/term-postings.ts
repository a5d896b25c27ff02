/**
 * Every (term, posting) pair of an index being built, compactly: each term gets a number, and the pairs go into
 * fixed-size chunks of 32-bit integers, 8 bytes a pair. A list of JavaScript numbers per term cost about 29 bytes a
 * posting (its slack, the Map's entries): 340 MB for the 11.7 million postings of 99,006 synthetic records, against
 * about 95 MB here, in the one thread that builds the index while the site's pages are rendered.
 * Hand-written because no library keeps an append-only multimap of small integers this tightly.
 */

/** Pairs per chunk (2^20: 8 MB), so growing never copies what is stored. */
const CHUNK_PAIRS = 1 << 20;

const EMPTY = new Uint32Array(0);

export class TermPostings {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly chunks: Uint32Array[] = [];
  private count = 0;

  /** Adds one posting (a whole number from 0 to 2^32 − 1) of `term`. */
  add(term: string, value: number): void {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(term, id);
      this.names.push(term);
    }
    const at = this.count % CHUNK_PAIRS;
    if (at === 0) this.chunks.push(new Uint32Array(2 * CHUNK_PAIRS));
    const chunk = this.chunks[this.chunks.length - 1]!;
    chunk[2 * at] = id;
    chunk[2 * at + 1] = value;
    this.count++;
  }

  /** Every term, in the order first added. */
  terms(): readonly string[] {
    return this.names;
  }

  /**
   * Each term's postings, sorted ascending, indexed like terms(): views into one array of every posting, grouped by
   * a counting sort over the term numbers. Takes them out: each chunk is let go once it is copied, so the pairs and
   * the sorted copy are never held whole at once (95 MB less at the peak of a build of 100,000 records), and the
   * postings are empty afterwards.
   */
  takeSortedByTerm(): Uint32Array[] {
    const terms = this.names.length;
    const counts = new Uint32Array(terms + 1);
    this.forEachPair((id) => counts[id + 1]!++);
    for (let i = 1; i <= terms; i++) counts[i]! += counts[i - 1]!;
    const values = new Uint32Array(this.count);
    const next = counts.slice(0, terms);
    this.forEachPair((id, value) => (values[next[id]!++] = value), true);
    this.count = 0;
    const lists: Uint32Array[] = [];
    for (let id = 0; id < terms; id++) lists.push(values.subarray(counts[id]!, counts[id + 1]!).sort());
    return lists;
  }

  /** Visits every pair in order; `release`: lets each chunk go once visited (the chunks are empty afterwards). */
  private forEachPair(visit: (id: number, value: number) => void, release = false): void {
    const chunks = this.chunks.length;
    for (let c = 0; c < chunks; c++) {
      const chunk = this.chunks[c]!;
      const pairs = c === chunks - 1 ? this.count - c * CHUNK_PAIRS : CHUNK_PAIRS;
      for (let i = 0; i < pairs; i++) visit(chunk[2 * i]!, chunk[2 * i + 1]!);
      if (release) this.chunks[c] = EMPTY;
    }
    if (release) this.chunks.length = 0;
  }
}
