import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import type { ChainReader } from "../payments/chain-outcome.js";
import { confidenceOf, verdictFrom } from "../signals/index.js";
import { dueCandidates, type Candidate } from "./candidates.js";
import { openCheck, recordSkip, type CanaryLimits } from "./ledger.js";
import type { CheckPayer } from "./payer-port.js";
import { runCheck } from "./run-check.js";
import { settleCheck } from "./settle.js";
import { reconcileChecks } from "./reconcile.js";

export interface CanarySettings {
  budgetUsdcPerDay: string;
  maxPriceUsdc: string;
  intervalHours: number;
  hostChecksPerDay: number;
}

export interface CanaryDeps {
  db: DbHandle;
  clock: Clock;
  log: Logger;
  chain: ChainReader;
  canary: CanarySettings;
  network: string;
  /** How checks pay (src/canary: the x402 client with the project's payment policy). */
  payer: CheckPayer;
}

/** Due listings read per tick; one check per host runs at a time. */
export const CANARY_BATCH = 8;
const SETTLE_TRIES = 3;
const SETTLE_PAUSE_MS = 2_000;

/** The paid checker (decision 0051): each tick resolves open checks from the chain, then checks due listings. */
export function createCanary(deps: CanaryDeps) {
  const { db, clock, log, canary } = deps;
  const limits: CanaryLimits = {
    budgetAtomic: BigInt(usdcToAtomic(canary.budgetUsdcPerDay)),
    maxPriceAtomic: BigInt(usdcToAtomic(canary.maxPriceUsdc)),
    intervalMs: Math.round(canary.intervalHours * 3_600_000),
    hostChecksPerDay: canary.hostChecksPerDay,
  };
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

  async function check(c: Candidate): Promise<void> {
    const now = clock.now();
    const why = ineligible(c, limits);
    if (why) return recordSkip(db.db, c, why, { price_atomic: c.priceAtomic, reason_codes: c.warnings }, limits.intervalMs, now);
    // The listed price is what is held and the most that may be signed: a 402 asking more is refused.
    const price = BigInt(c.priceAtomic!);
    const opened = await openCheck(db.db, c, price, limits, owner, now);
    if (!opened || !("id" in opened)) return;
    await runCheck(db.db, (onSigned) => deps.payer(price, onSigned), c, opened.id);
    for (let i = 0; i < SETTLE_TRIES; i++) {
      if (await settleCheck({ db: db.db, chain: deps.chain, log }, opened.id, clock.now())) return;
      await sleep(SETTLE_PAUSE_MS);
    }
  }

  return {
    limits,
    async tick(): Promise<{ checked: number; reconciled: number }> {
      const reconciled = await reconcileChecks({ db: db.db, chain: deps.chain, log }, clock.now());
      const due = await dueCandidates(db.db, deps.network, limits.intervalMs, CANARY_BATCH, clock.now());
      const firstPerHost = [...new Map(due.map((c) => [c.host, c])).values()];
      const results = await Promise.allSettled(firstPerHost.map(check));
      for (const r of results) if (r.status === "rejected") log.warn({ err: r.reason }, "canary: a check failed");
      return { checked: firstPerHost.length, reconciled };
    },
  };
}

/** Why a due listing is not paid at all: over the ceiling (or priced unknown), or a verdict that is not pay or investigate. */
function ineligible(c: Candidate, limits: CanaryLimits): string | null {
  if (c.priceAtomic === null || !/^\d+$/.test(c.priceAtomic) || BigInt(c.priceAtomic) > limits.maxPriceAtomic) return "ceiling";
  const v = verdictFrom(c.warnings, true, confidenceOf(c.probes1h));
  return v.ok && (v.recommended_action === "pay" || v.recommended_action === "investigate") ? null : "verdict";
}

export type Canary = ReturnType<typeof createCanary>;
