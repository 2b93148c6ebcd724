import type { DemoEndpoint, DemoKind } from "../types.js";

/**
 * What the demo's traffic pays (decision 0052): the honest listings, so the chain shows them used,
 * and Northwind's merchant that takes the money and answers 500, so payers' failure reports show.
 * Everything else (ghosts, traps, decoys) nobody pays: after GHOST_MIN_LISTED_HOURS the alive ones
 * read ghost_listing.
 */
export const TRAFFIC_KINDS: readonly DemoKind[] = ["healthy", "slow", "paid_ok", "paid_500"];
/** Never more than this per call, whatever a listing says. */
export const TRAFFIC_MAX_USDC = 0.01;

export const trafficTargets = (endpoints: readonly DemoEndpoint[]): DemoEndpoint[] =>
  endpoints.filter((e) => TRAFFIC_KINDS.includes(e.kind) && Number(e.price) <= TRAFFIC_MAX_USDC);

/** Round `round` pays target i from wallet (i + round) mod n: over two rounds each target has two payers. */
export const walletFor = (round: number, target: number, wallets: number) => (round + target) % wallets;
