/**
 * Long work cut into slices of the thread's time (src/core/util/time-slices.ts): between two slices the event loop
 * turns, so that what waits on it (a page thread's next batch) is not held up for the whole of the work.
 */
import { describe, expect, it } from 'vitest';
import { runInSlices, runToEnd, timeSlices } from '../../src/core/util/time-slices.ts';

/** Keeps the thread busy for `ms`. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('timeSlices', () => {
  it('gives no pause before its time is up, then one that lets the event loop turn, and counts from its end', async () => {
    const pause = timeSlices(20);
    expect(pause()).toBeUndefined();
    busy(25);
    let turned = false;
    setImmediate(() => (turned = true));
    const paused = pause();
    expect(paused).toBeInstanceOf(Promise);
    await paused;
    expect(turned).toBe(true);
    expect(pause()).toBeUndefined(); // a new slice begins once the pause is over
  });
});

describe('runInSlices', () => {
  it('runs every step, in order, and lets waiting work run between slices, not only at the end', async () => {
    const done: number[] = [];
    const steps = function* () {
      for (let i = 0; i < 12; i++) {
        busy(3);
        done.push(i);
        yield;
      }
    };
    // A callback that keeps asking for the event loop's turn, as a page thread's finished batch does.
    const seenAt: number[] = [];
    let asking = true;
    const ask = () => {
      seenAt.push(done.length);
      if (asking) setImmediate(ask);
    };
    setImmediate(ask);
    await runInSlices(steps(), 5);
    asking = false;
    expect(done).toEqual([...Array(12).keys()]);
    // It ran while steps were still to come: several times, at different points of the work.
    const during = new Set(seenAt.filter((n) => n > 0 && n < 12));
    expect(during.size).toBeGreaterThanOrEqual(2);
  });

  it('an empty or quick piece of work takes no turn of the event loop', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    expect(await runInSlices([1, 2, 3].values(), 1_000)).toBeUndefined();
    expect(turned).toBe(false);
  });

  it('gives what the work returns, as runToEnd does at once', async () => {
    const steps = function* () {
      let sum = 0;
      for (let i = 1; i <= 4; i++) {
        busy(2);
        sum += i;
        yield;
      }
      return sum;
    };
    expect(await runInSlices(steps(), 1)).toBe(10);
    expect(runToEnd(steps())).toBe(10);
  });
});
