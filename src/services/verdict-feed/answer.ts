import { createHash } from "node:crypto";
import { isSpecWarning } from "@x402-lookout/contracts/codes";
import { SNAPSHOT_LIMITS } from "@x402-lookout/contracts/snapshot/limits";
import type { SnapshotClaims, VerdictDeltas, VerdictEntry, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import type { JwsSigner } from "../verdict-signing/index.js";
import type { FeedRow } from "./read.js";

/** An entry in the wire's key order: the client hashes the entries as it parsed them (docs/offline-guard.md). */
export function entryOf(row: FeedRow): VerdictEntry {
  const f = row.feed!;
  return {
    url: row.url,
    method: row.method,
    ok: f.ok,
    action: f.action as VerdictEntry["action"],
    // An entry stored before decision 0045 held every code in warnings: the next pass rewrites it.
    warnings: (f.reason_codes ? f.warnings : f.warnings.filter((c) => isSpecWarning(c, "preflight"))) as VerdictEntry["warnings"],
    reason_codes: (f.reason_codes ?? f.warnings) as VerdictEntry["reason_codes"],
    pay_to: f.pay_to,
    asset: f.asset,
    network: f.network,
    amount: f.amount,
    price_usdc: f.price_usdc,
    seq: row.seq,
  };
}

export const digestOf = (covered: unknown[]) => createHash("sha256").update(JSON.stringify(covered)).digest("base64url");

/** The signed answer: claims per SnapshotClaimsSchema, exp lifetimeSeconds after generated_at. */
async function signed(sign: JwsSigner, iss: string, claims: Omit<SnapshotClaims, "iss" | "exp" | "generated_at">, now: Date) {
  const generated_at = now.toISOString();
  const exp = Math.floor(now.getTime() / 1000) + SNAPSHOT_LIMITS.lifetimeSeconds;
  const expires_at = new Date(now.getTime() + SNAPSHOT_LIMITS.lifetimeSeconds * 1000).toISOString();
  const payload: SnapshotClaims = {
    iss,
    kind: claims.kind,
    since: claims.since,
    seq: claims.seq,
    count: claims.count,
    entries_digest: claims.entries_digest,
    generated_at,
    exp,
  };
  return { generated_at, expires_at, signature: await sign(payload) };
}

export async function snapshotAnswer(sign: JwsSigner, iss: string, read: { seq: number; rows: FeedRow[] }, now: Date): Promise<VerdictSnapshot> {
  const entries = read.rows.map(entryOf);
  const claims = { kind: "snapshot" as const, since: null, seq: read.seq, count: entries.length, entries_digest: digestOf([entries]) };
  const { generated_at, expires_at, signature } = await signed(sign, iss, claims, now);
  return { seq: read.seq, generated_at, expires_at, count: entries.length, entries, signature };
}

/** At most `max` rows (the read asks one more); truncated at the last included, else at the current number. */
export async function deltasAnswer(
  sign: JwsSigner,
  iss: string,
  at: { since: number; max: number; now: Date },
  read: { seq: number; rows: FeedRow[] },
): Promise<VerdictDeltas> {
  const { since, max, now } = at;
  const truncated = read.rows.length > max;
  const page = read.rows.slice(0, max);
  const seq = truncated ? page[page.length - 1]!.seq : Math.max(read.seq, since);
  const changed = page.filter((r) => r.feed !== null).map(entryOf);
  const removed = page.filter((r) => r.feed === null).map((r) => ({ url: r.url, method: r.method, seq: r.seq }));
  const claims = { kind: "deltas" as const, since, seq, count: changed.length + removed.length, entries_digest: digestOf([changed, removed]) };
  const { generated_at, expires_at, signature } = await signed(sign, iss, claims, now);
  return { since, seq, generated_at, expires_at, truncated, changed, removed, signature };
}
