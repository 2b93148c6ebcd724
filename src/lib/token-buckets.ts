export interface TokenBucketsOptions {
  /** Tokens a key holds when full: its burst. */
  capacity: number;
  /** Tokens a key regains per second. */
  perSecond: number;
  /** Keys tracked at most; past it the least recently used is forgotten (memory stays bounded). */
  maxKeys: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (a client address), in memory, on the caller's clock (milliseconds).
 * A forgotten key starts full again: the bound on memory costs at most a fresh burst.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly opts: TokenBucketsOptions) {
    if (!(opts.capacity >= 1 && opts.perSecond > 0 && opts.maxKeys >= 1)) throw new RangeError("token buckets need capacity >= 1, perSecond > 0, maxKeys >= 1");
  }

  /** Takes one token of `key`: 0 when granted, else the whole seconds until one is back. */
  take(key: string, nowMs: number): number {
    const { capacity, perSecond, maxKeys } = this.opts;
    const held = this.buckets.get(key);
    let tokens = held ? Math.min(capacity, held.tokens + (Math.max(0, nowMs - held.at) / 1000) * perSecond) : capacity;
    const granted = tokens >= 1;
    if (granted) tokens -= 1;
    // Re-inserted on every use: the Map's order is then least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens, at: nowMs });
    if (this.buckets.size > maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return granted ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond));
  }

  get size(): number {
    return this.buckets.size;
  }
}
