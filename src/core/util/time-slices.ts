/**
 * Long work on a thread whose event loop others wait on, cut into slices: the site build's main thread hands the page
 * threads their batches (src/site/build/3-record-pages.ts), and while a step of its own runs without a break those
 * threads go without work once their queued batches are done.
 */

/** A slice of this length keeps a few batches queued at each page thread (a batch of cached pages takes about 7 ms). */
export const SLICE_MS = 10;

/**
 * A pause to call between two steps of a long piece of work: a promise that settles on the event loop's next turn
 * (setImmediate, after its I/O) once the work has run `ms` since the last pause, else undefined, so that a step too
 * short to matter costs no turn and no microtask (`const p = pause(); if (p) await p;`).
 */
export function timeSlices(ms: number = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

/** Runs a generator's steps to the end, pausing between them every `ms` of work (timeSlices); what it returns. */
export async function runInSlices<T>(steps: Iterator<unknown, T>, ms: number = SLICE_MS): Promise<T> {
  const pause = timeSlices(ms);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    const paused = pause();
    if (paused) await paused;
  }
}

/** Runs a generator's steps to the end at once; what it returns (the same work as runInSlices, for a caller in no hurry). */
export function runToEnd<T>(steps: Iterator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
