/**
 * How the search index's documents are cut into segments, each with files of its own (format.ts): as a binary counter
 * of blocks. The whole blocks of `block` documents are grouped by the binary digits of their number, largest first
 * (at 99,006 documents and blocks of 1,024: 65,536 and 32,768), and the documents after the last whole block are the
 * last segment (702). An append changes only the last segment, until it fills a block; then the blocks merge as a
 * binary counter carries, so a document's postings are rewritten about log2(documents / block) times in its life,
 * and a reader fetches at most one file per segment and word: log2(documents / block) + 2 at most, usually fewer.
 * A pure function of the count: a build from a cache and a clean build cut the same segments.
 */

export interface SegmentRange {
  start: number;
  count: number;
}

export function segmentsOf(documents: number, block: number): SegmentRange[] {
  if (!Number.isSafeInteger(documents) || documents < 0) throw new Error(`search index: a document count must be a whole number from 0, not ${documents}`);
  if (!Number.isSafeInteger(block) || block < 1) throw new Error(`search index: a segment block must be a whole number from 1, not ${block}`);
  const out: SegmentRange[] = [];
  const blocks = Math.floor(documents / block);
  let start = 0;
  for (let bit = 2 ** Math.floor(Math.log2(Math.max(1, blocks))); bit >= 1; bit /= 2) {
    if (Math.floor(blocks / bit) % 2 === 0) continue;
    out.push({ start, count: bit * block });
    start += bit * block;
  }
  if (start < documents) out.push({ start, count: documents - start });
  return out;
}

/** The place in `segments` (segmentsOf's, in order) of the segment that holds document `ordinal`. */
export function segmentIndexOf(segments: readonly SegmentRange[], ordinal: number): number {
  let s = 0;
  while (s < segments.length && ordinal >= segments[s]!.start + segments[s]!.count) s++;
  if (s === segments.length || ordinal < 0) throw new Error(`search index: no segment holds document ${ordinal}`);
  return s;
}
