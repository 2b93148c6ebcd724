/**
 * Preflight answers by URL for `ttlMs` while `usable` holds (a verdict past its exp is not
 * reused), and one call in flight per URL: concurrent checks of the same URL wait for the same
 * answer. Failures are not kept, so the next check asks again.
 */
export class PreflightCache<T> {
  private readonly answers = new Map<string, { value: T; at: number }>();
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
    private readonly usable: (value: T) => boolean = () => true,
  ) {}

  /** The cached answer for `key`, else the one call `load` makes (shared by concurrent callers). */
  get(key: string, load: () => Promise<T>): { value: Promise<T>; cached: boolean } {
    const hit = this.answers.get(key);
    if (hit && this.now() - hit.at < this.ttlMs && this.usable(hit.value)) return { value: Promise.resolve(hit.value), cached: true };
    const pending = this.inFlight.get(key);
    if (pending) return { value: pending, cached: true };
    const value = load()
      .then((v) => {
        this.remember(key, v);
        return v;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, value);
    return { value, cached: false };
  }

  private remember(key: string, value: T): void {
    this.answers.delete(key);
    if (this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, { value, at: this.now() });
  }
}
