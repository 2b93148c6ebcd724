import { privateKeyToAccount } from "viem/accounts";
import type { Logger } from "../../lib/log.js";
import type { DemoEndpoint } from "../types.js";
import { payOnce, report } from "./pay-and-report.js";
import { trafficTargets, walletFor } from "./targets.js";

/** A round every two minutes, the first 20 s after start: paid volume shows within the first minutes. */
export const TRAFFIC_ROUND_MS = 2 * 60_000;
export const TRAFFIC_FIRST_ROUND_MS = 20_000;

export interface DemoTrafficOptions {
  endpoints: readonly DemoEndpoint[];
  /** The traffic wallets' keys (devnet accounts 25..27). */
  wallets: readonly `0x${string}`[];
  network: string;
  /** The service, where the reports go. */
  serviceUrl: string;
  log: Logger;
  /** Rounds on the timer (default true); false: only when runRound is called (tests). */
  scheduled?: boolean;
}

/**
 * The demo's paying agents (decision 0052): each round pays every target once from a rotating
 * wallet and reports what came back, signed by the paying wallet. Failures are logged once per
 * kind of failure and never stop the process.
 */
export function startDemoTraffic(opts: DemoTrafficOptions) {
  const targets = trafficTargets(opts.endpoints);
  const accounts = opts.wallets.map((k) => privateKeyToAccount(k));
  const warned = new Set<string>();
  let round = 0;
  let stopped = false;

  const warnOnce = (err: unknown, url: string) => {
    const kind = err instanceof Error ? err.message.slice(0, 80) : String(err);
    if (!warned.has(kind)) opts.log.warn({ err, url }, "demo traffic: a paid call or its report failed (said once per kind)");
    warned.add(kind);
  };

  /** Pays one target; its report goes in the background (it may wait a minute for the indexer). */
  async function one(e: DemoEndpoint, i: number, n: number): Promise<{ sent: Promise<number> } | null> {
    const account = accounts[walletFor(n, i, accounts.length)]!;
    const paid = await payOnce(account, opts.network, e).catch((err: unknown) => (warnOnce(err, e.url), null));
    if (!paid) return null;
    // Wrapped: an async function returning the promise itself would wait for the report.
    return { sent: report(opts.serviceUrl, account, e, paid, `demo traffic: HTTP ${paid.status}`).catch((err: unknown) => (warnOnce(err, e.url), 0)) };
  }

  /** One round, the calls one after another; resolves once every report is answered. */
  async function runRound(): Promise<number[]> {
    const n = round++;
    const reports: Array<Promise<number>> = [];
    for (const [i, e] of targets.entries()) {
      if (stopped) break;
      const paid = await one(e, i, n);
      if (paid) reports.push(paid.sent);
    }
    opts.log.debug({ round: n, targets: targets.length, paid: reports.length }, "demo traffic round");
    return Promise.all(reports);
  }

  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    void runRound().finally(() => {
      if (!stopped) timer = setTimeout(tick, TRAFFIC_ROUND_MS);
    });
  };
  if (opts.scheduled !== false) timer = setTimeout(tick, TRAFFIC_FIRST_ROUND_MS);
  opts.log.info(
    { endpoints: targets.length, everyMinutes: TRAFFIC_ROUND_MS / 60_000, wallets: accounts.map((a) => a.address) },
    `demo traffic: ${targets.length} endpoints every ${TRAFFIC_ROUND_MS / 60_000} min from ${accounts.length} wallets, each outcome reported`,
  );
  return {
    runRound,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
