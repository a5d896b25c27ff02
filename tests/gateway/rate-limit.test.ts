import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/gateway/rate-limit.ts';

describe('RateLimiter', () => {
  it('per-client and global buckets refill over time and say how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ perClient: { burst: 2, perSecond: 0.5 }, global: { burst: 3, perSecond: 1 } }, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 2]);
    expect(limiter.take('b')).toBe(0);
    expect(limiter.take('c')).toBe(1); // global bucket empty
    now += 2000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThan(0);
  });
});
