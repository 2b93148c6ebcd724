import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fetch as undiciFetch } from "undici";
import { privateKeyToAccount } from "viem/accounts";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { createGuardedDispatcher } from "../../lib/ssrf-guard.js";
import { publicJwks } from "../certificates/signing-keys.js";
import type { ChainReader } from "../payments/chain-outcome.js";
import { MAX_RESPONSE_HEADER_BYTES } from "../probes/constants.js";
import type { ReportTarget } from "../reports/report-target.js";
import { confidenceOf, verdictFrom } from "../signals/index.js";
import { dueCandidates, type Candidate } from "./candidates.js";
import { openCheck, recordSkip, type CanaryLimits } from "./ledger.js";
import { ownLookout } from "./own-lookout.js";
import { CHECK_TIMEOUT_MS, runCheck } from "./run-check.js";
import { settleCheck } from "./settle.js";
import { reconcileChecks } from "./reconcile.js";

export interface CanarySettings {
  privateKey: `0x${string}`;
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
  allowPrivateTargets: boolean;
  publicBaseUrl: string;
  /** The reports service's preflight (the signed answer the route sells). */
  preflight: (target: ReportTarget) => Promise<unknown>;
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
  const dispatcher = createGuardedDispatcher({
    allowPrivate: deps.allowPrivateTargets,
    connectTimeoutMs: 5_000,
    headersTimeoutMs: CHECK_TIMEOUT_MS,
    bodyTimeoutMs: CHECK_TIMEOUT_MS,
    maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
  });
  const lookout = ownLookout({ baseUrl: deps.publicBaseUrl, preflight: deps.preflight, jwks: () => publicJwks(db.db, clock.now()) });
  const payer = {
    privateKey: canary.privateKey,
    network: deps.network,
    lookout,
    fetch: guardedFetch(dispatcher),
  };

  async function check(c: Candidate): Promise<void> {
    const now = clock.now();
    const why = ineligible(c, limits);
    if (why) return recordSkip(db.db, c, why, { price_atomic: c.priceAtomic, reason_codes: c.warnings }, limits.intervalMs, now);
    // The listed price is what is held and the most that may be signed: a 402 asking more is refused.
    const price = BigInt(c.priceAtomic!);
    const opened = await openCheck(db.db, c, price, limits, owner, now);
    if (!opened || !("id" in opened)) return;
    await runCheck(db.db, { ...payer, maxAtomic: price }, c, opened.id);
    for (let i = 0; i < SETTLE_TRIES; i++) {
      if (await settleCheck({ db: db.db, chain: deps.chain, log }, opened.id, clock.now())) return;
      await sleep(SETTLE_PAUSE_MS);
    }
  }

  return {
    address: privateKeyToAccount(canary.privateKey).address,
    limits,
    async tick(): Promise<{ checked: number; reconciled: number }> {
      const reconciled = await reconcileChecks({ db: db.db, chain: deps.chain, log }, clock.now());
      const due = await dueCandidates(db.db, deps.network, limits.intervalMs, CANARY_BATCH, clock.now());
      const firstPerHost = [...new Map(due.map((c) => [c.host, c])).values()];
      const results = await Promise.allSettled(firstPerHost.map(check));
      for (const r of results) if (r.status === "rejected") log.warn({ err: r.reason }, "canary: a check failed");
      return { checked: firstPerHost.length, reconciled };
    },
    close: () => dispatcher.close(),
  };
}

/** undici's fetch through the SSRF-guarded dispatcher, given the WHATWG Request the payer builds. */
function guardedFetch(dispatcher: ReturnType<typeof createGuardedDispatcher>): typeof fetch {
  return (async (input: Request) => {
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
    const res = await undiciFetch(input.url, { method: input.method, headers: [...input.headers], body, signal: input.signal, redirect: "manual", dispatcher });
    return res as unknown as Response;
  }) as typeof fetch;
}

/** Why a due listing is not paid at all: over the ceiling (or priced unknown), or a verdict that is not pay or investigate. */
function ineligible(c: Candidate, limits: CanaryLimits): string | null {
  if (c.priceAtomic === null || !/^\d+$/.test(c.priceAtomic) || BigInt(c.priceAtomic) > limits.maxPriceAtomic) return "ceiling";
  const v = verdictFrom(c.warnings, true, confidenceOf(c.probes1h));
  return v.ok && (v.recommended_action === "pay" || v.recommended_action === "investigate") ? null : "verdict";
}

export type Canary = ReturnType<typeof createCanary>;
