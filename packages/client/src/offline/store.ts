import type { VerdictDeltas, VerdictEntry, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import type { LookoutKeys } from "../jwks.js";
import { SnapshotRefusedError, verifySignedAnswer } from "./verify.js";

/**
 * The key of a listing: its method and its address as the guard targets it (origin and path,
 * without query and fragment); null for what is not an http(s) URL.
 */
export function listingKey(url: string, method: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  return `${method.toUpperCase()} ${u.origin}${u.pathname}`;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The catalogued verdicts as of one sequence number. Answers are applied only once their
 * signature and digest verify and only in order: a snapshot never older than the store, deltas
 * only from the store's own seq. A refused answer throws SnapshotRefusedError and changes nothing.
 */
export class VerdictStore {
  private readonly entries = new Map<string, VerdictEntry>();
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

  /** The listing at this address and method; without a method (a payment hook sees none), the address's only listing. */
  get(url: string, method?: string): VerdictEntry | undefined {
    if (method !== undefined) {
      const key = listingKey(url, method);
      return key === null ? undefined : this.entries.get(key);
    }
    const found = METHODS.map((m) => this.get(url, m)).filter((e) => e !== undefined);
    return found.length === 1 ? found[0] : undefined;
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
      if (kept && kept.seq <= r.seq) this.entries.delete(key!);
    }
    [this.seq, this.expiresAt] = [deltas.seq, until];
  }

  private put(entry: VerdictEntry): void {
    const key = listingKey(entry.url, entry.method);
    if (key !== null) this.entries.set(key, entry);
  }
}
