/** Token buckets: one per client address and one global. `take` answers how long to wait when a bucket is empty. */

export interface BucketSettings {
  /** Most requests at once. */
  burst: number;
  /** Tokens added per second. */
  perSecond: number;
}

export interface RateLimitSettings {
  perClient: BucketSettings;
  global: BucketSettings;
}

class Bucket {
  tokens: number;
  updated: number;
  private readonly settings: BucketSettings;
  constructor(settings: BucketSettings, now: number) {
    this.settings = settings;
    this.tokens = settings.burst;
    this.updated = now;
  }
  refill(now: number): void {
    this.tokens = Math.min(this.settings.burst, this.tokens + ((now - this.updated) / 1000) * this.settings.perSecond);
    this.updated = now;
  }
  /** Seconds until one token is available (0 when one is). */
  wait(): number {
    if (this.tokens >= 1) return 0;
    return this.settings.perSecond > 0 ? Math.max(1, Math.ceil((1 - this.tokens) / this.settings.perSecond)) : 3600;
  }
}

/** At most this many client buckets are kept; full (idle) buckets are dropped first. */
const MAX_CLIENTS = 10_000;

export class RateLimiter {
  private readonly clients = new Map<string, Bucket>();
  private readonly global: Bucket;
  private readonly settings: RateLimitSettings;
  private readonly clock: () => number;

  constructor(settings: RateLimitSettings, clock: () => number = Date.now) {
    this.settings = settings;
    this.clock = clock;
    this.global = new Bucket(settings.global, clock());
  }

  /** Takes a token for `client` from both buckets; 0 when allowed, else the seconds to wait (Retry-After). */
  take(client: string): number {
    const now = this.clock();
    let bucket = this.clients.get(client);
    if (!bucket) {
      if (this.clients.size >= MAX_CLIENTS) this.prune(now);
      bucket = new Bucket(this.settings.perClient, now);
      this.clients.set(client, bucket);
    }
    bucket.refill(now);
    this.global.refill(now);
    const wait = Math.max(bucket.wait(), this.global.wait());
    if (wait > 0) return wait;
    bucket.tokens -= 1;
    this.global.tokens -= 1;
    return 0;
  }

  private prune(now: number): void {
    for (const [key, b] of this.clients) {
      b.refill(now);
      if (b.tokens >= this.settings.perClient.burst) this.clients.delete(key);
    }
    if (this.clients.size >= MAX_CLIENTS) this.clients.clear();
  }
}
