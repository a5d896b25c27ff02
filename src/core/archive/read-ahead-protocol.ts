/**
 * What the validation (read-ahead.ts) and the thread that reads ahead of it (read-ahead-worker.ts) share: the
 * thread's start-up data, the slots of their shared control array, and the chunk the thread posts. In a module of its
 * own so that the thread loads nothing else.
 */

/** Slots of the shared Int32Array. */
export const CONTROL = {
  /** The next chunk nobody has claimed (both sides claim by compare-and-swap, in order). */
  claimed: 0,
  /** The chunk the validation is at: the thread stays at most `window` chunks ahead of it. */
  consumed: 1,
  /** How many chunks the thread has posted (the validation waits on it). */
  delivered: 2,
  /** STATE. */
  state: 3,
} as const;
export const CONTROL_SLOTS = 4;

export const STATE = { running: 0, stopped: 1, failed: 2 } as const;

export interface ReadAheadData {
  root: string;
  /** The files to read, in the order the validation asks for them. */
  paths: readonly string[];
  /** Files per chunk. */
  chunkSize: number;
  /** How many chunks the thread may be ahead of the validation. */
  window: number;
  /** A larger file is left to the validation (which reads it for its size only: src/core/rules/file/too-large.ts). */
  maxBytes: number;
  control: SharedArrayBuffer;
  /** Where a chunk goes when it fits, if the validation lets each file's bytes go soon enough (read-ahead.ts: ChunkRing). */
  ring?: ChunkRing;
}

/**
 * Memory shared by the two threads, allocated once, in which chunk `i` is read into slot `i % slots` when its bytes
 * fit in `slotBytes` (one that does not gets a buffer of its own). Nothing is moved per chunk, so the validation's
 * thread allocates nothing per file: each moved buffer counted as new memory outside V8's heap there, and V8 answers
 * every 64 MB of that with a full collection.
 */
export interface ChunkRing {
  buffer: SharedArrayBuffer;
  slots: number;
  slotBytes: number;
}

/**
 * A chunk of files read: each as [offset in `buffer`, length, identity, SHA-256], or null when it is left to the
 * validation. Without `buffer` the bytes are in the ring, and the offsets are the ring's.
 */
export interface ReadAheadChunk {
  index: number;
  buffer?: ArrayBuffer;
  files: ([offset: number, length: number, identity: string, sha256: string] | null)[];
}
