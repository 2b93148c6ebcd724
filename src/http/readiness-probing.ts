import type { DbHandle } from "../db/client.js";
import { readRefusedListings, type RefusedListings } from "../db/read-models/operations-state.js";

const HOUR_MS = 3_600_000;

/** One /readyz check (readiness.ts re-exports it). */
export interface Check {
  ok: boolean;
  reason: string;
  age_seconds?: number;
  /** probing: active listings whose newest probe the SSRF guard refused (decision 0037). */
  refused_listings?: number;
}

/**
 * Refusals this recent count: two probe intervals (every active listing was due in them), at
 * least an hour. A listing probed since its refusal no longer counts (decision 0037).
 */
export const refusalWindowMs = (probeIntervalSeconds: number): number => Math.max(HOUR_MS, 2 * probeIntervalSeconds * 1000);

export const readProbing = (db: Pick<DbHandle, "db">, now: Date, probeIntervalSeconds: number): Promise<RefusedListings> =>
  readRefusedListings(db, new Date(now.getTime() - refusalWindowMs(probeIntervalSeconds)));

/**
 * /readyz's `probing` check. It always holds: a refused target is the SSRF guard doing its work
 * (a public catalog may name 127.0.0.1 on purpose), and the service still answers, with
 * `no_history` for what it cannot probe. The reason and `refused_listings` say the catalog (or
 * part of it) cannot be probed, and which setting opens it.
 */
export function probingCheck(refused: RefusedListings, allowPrivateTargets: boolean): Check {
  if (refused.count === 0) return { ok: true, reason: "no listing's newest probe was refused by the SSRF guard", refused_listings: 0 };
  const what = refused.count === 1 ? "1 listing" : `${refused.count} listings`;
  const fix = allowPrivateTargets
    ? "ALLOW_PRIVATE_TARGETS is on now: they count until their next probe"
    : "set ALLOW_PRIVATE_TARGETS=true (tests and demos; refused on mainnet) if these private or loopback targets are meant to be probed";
  return {
    ok: true,
    reason: `the catalog cannot be probed: the SSRF guard refused the newest probe of ${what} (e.g. ${refused.exampleHost}); ${fix}`,
    refused_listings: refused.count,
  };
}
