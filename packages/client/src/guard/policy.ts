import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { PreflightReport, RecommendedAction } from "../types.js";
import type { BlockReason } from "./errors.js";

export interface GuardPolicy {
  /** Actions that stop the payment; default skip and use_alternatives. ok=false always stops it. */
  blockActions: readonly RecommendedAction[];
  /** Let endpoints no catalog lists (warning unknown_endpoint) through when nothing else blocks. */
  allowUnknown: boolean;
  /** Stop payments to endpoints priced above this many USDC, or whose price is unknown. */
  maxPriceUsdc: string | undefined;
}

export const DEFAULT_BLOCK_ACTIONS: readonly RecommendedAction[] = ["skip", "use_alternatives"];

/** Why a report stops the payment; empty when it may go ahead. */
export function blockReasons(report: PreflightReport, policy: GuardPolicy): BlockReason[] {
  const reasons: BlockReason[] = [];
  if (!report.ok) reasons.push("not_ok");
  if (policy.blockActions.includes(report.recommended_action)) reasons.push("action");
  if (!policy.allowUnknown && report.warnings.includes("unknown_endpoint")) reasons.push("unknown_endpoint");
  if (policy.maxPriceUsdc !== undefined) {
    const price = atomic(report.metadata.price_usdc);
    if (price === null) reasons.push("price_unknown");
    else if (price > BigInt(usdcToAtomic(policy.maxPriceUsdc))) reasons.push("price_above_max");
  }
  return reasons;
}

/** Prices come as decimal strings, null when unknown (an older server sent ""); more than 6 decimals round up. */
function atomic(price: string | null): bigint | null {
  const m = price === null ? null : /^(\d+)(?:\.(\d+))?$/.exec(price);
  if (!m) return null;
  const frac = m[2] ?? "";
  const base = BigInt(usdcToAtomic(`${m[1]}${frac ? `.${frac.slice(0, 6)}` : ""}`));
  return /[1-9]/.test(frac.slice(6)) ? base + 1n : base;
}
