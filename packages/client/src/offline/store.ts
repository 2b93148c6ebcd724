import type { VerdictDeltas, VerdictEntry, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import { isRouteTemplate, matchKey, pickListing } from "@x402-lookout/contracts/url-match";
import type { LookoutKeys } from "../jwks.js";
import { SnapshotRefusedError, verifySignedAnswer } from "./verify.js";

/** The identity of a listing in the store: its method and catalogued address; null for what is not an http(s) URL. */
function listingKey(url: string, method: string): string | null {
  const key = matchKey(url);
  return key === undefined ? null : `${method.toUpperCase()} ${new URL(url).href}`;
}

/** Where an entry is found from: its match key, or its host for a route template. */
const indexOf = (e: VerdictEntry): string => (isRouteTemplate(e.url) ? `template ${new URL(e.url).host}` : matchKey(e.url)!);

/**
 * The catalogued verdicts as of one sequence number. Answers are applied only once their
 * signature and digest verify and only in order: a snapshot never older than the store, deltas
 * only from the store's own seq. A refused answer throws SnapshotRefusedError and changes nothing.
 */
export class VerdictStore {
  private readonly entries = new Map<string, VerdictEntry>();
  /** The entries by match key (route templates by host): what a request URL is matched among. */
  private readonly byIndex = new Map<string, Set<VerdictEntry>>();
  /** The sequence number the store is consistent at; null before the first snapshot. */
  seq: number | null = null;
  /** Until when (ms) the last applied answer speaks; past it the store decides nothing. */
  expiresAt = 0;

  constructor(
    private readonly keys: LookoutKeys,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The listing a request reaches, by the one URL matcher (the service's own); without a method
   * (a payment hook that saw no request), only when the address has a single listing.
   */
  get(url: string, method?: string): VerdictEntry | undefined {
    const key = matchKey(url);
    if (key === undefined) return undefined;
    const near = [...(this.byIndex.get(key) ?? [])];
    const m = pickListing({ url, method }, near) ?? pickListing({ url, method }, [...(this.byIndex.get(`template ${new URL(url).host}`) ?? [])]);
    if (!m || method !== undefined) return m?.listing;
    return near.some((e) => e.url === m.listing.url && e.method !== m.listing.method) ? undefined : m.listing;
  }

  async applySnapshot(snapshot: VerdictSnapshot): Promise<void> {
    const order = () => {
      if (this.seq !== null && snapshot.seq < this.seq)
        throw new SnapshotRefusedError("snapshot", `its seq ${snapshot.seq} is older than the store's ${this.seq}`);
    };
    order();
    const until = await verifySignedAnswer(this.keys, { kind: "snapshot", answer: snapshot }, this.now());
    order(); // another answer may have been applied while this one was verified
    this.entries.clear();
    this.byIndex.clear();
    for (const e of snapshot.entries) this.put(e);
    [this.seq, this.expiresAt] = [snapshot.seq, until];
  }

  async applyDeltas(deltas: VerdictDeltas): Promise<void> {
    const order = () => {
      if (this.seq === null || deltas.since !== this.seq)
        throw new SnapshotRefusedError("deltas", `they start at ${deltas.since}, the store is at ${this.seq ?? "no snapshot"}`);
      if (deltas.seq < deltas.since) throw new SnapshotRefusedError("deltas", `their seq ${deltas.seq} is before their since ${deltas.since}`);
    };
    order();
    const until = await verifySignedAnswer(this.keys, { kind: "deltas", answer: deltas }, this.now());
    order();
    for (const e of deltas.changed) this.put(e);
    for (const r of deltas.removed) {
      const key = listingKey(r.url, r.method);
      // A listing removed and listed again within the same answer is kept as its newer change says.
      const kept = key === null ? undefined : this.entries.get(key);
      if (kept && kept.seq <= r.seq) this.drop(key!, kept);
    }
    [this.seq, this.expiresAt] = [deltas.seq, until];
  }

  private put(entry: VerdictEntry): void {
    const key = listingKey(entry.url, entry.method);
    if (key === null) return;
    const kept = this.entries.get(key);
    if (kept) this.drop(key, kept);
    this.entries.set(key, entry);
    const index = indexOf(entry);
    this.byIndex.set(index, (this.byIndex.get(index) ?? new Set()).add(entry));
  }

  private drop(key: string, entry: VerdictEntry): void {
    this.entries.delete(key);
    const index = this.byIndex.get(indexOf(entry));
    index?.delete(entry);
    if (index?.size === 0) this.byIndex.delete(indexOf(entry));
  }
}
