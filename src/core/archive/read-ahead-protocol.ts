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
}

/** A chunk of files read: each as [offset in `buffer`, length, identity, SHA-256], or null when it is left to the validation. */
export interface ReadAheadChunk {
  index: number;
  buffer: ArrayBuffer;
  files: ([offset: number, length: number, identity: string, sha256: string] | null)[];
}
