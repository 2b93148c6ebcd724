import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { LookoutClient } from "../client.js";
import type { OfflineGuard } from "../offline/types.js";
import type { PreflightReport, RecommendedAction } from "../types.js";
import type { GuardDecision } from "./decision.js";
import { isOutage, readModes, type ModeOptions } from "./modes.js";
import { blockReasons, DEFAULT_BLOCK_ACTIONS, type GuardPolicy } from "./policy.js";
import { PreflightCache } from "./preflight-cache.js";
import { MalformedQuoteError } from "./errors.js";
import { malformedOf, overCap, quoteVerdict, type GuardedCall, type QuoteVerdict } from "./quote-check.js";

/** What guardFetch and lookoutPolicy share: the checks, their cache, the modes and the decisions. */
export interface CheckOptions extends ModeOptions {
  /** The x402 Lookout client that pays for the checks and verifies their signed verdicts. */
  lookout: Pick<LookoutClient, "baseUrl" | "preflight">;
  /** Stop payments priced above this many USDC (or whose price is unknown); at the quote stage, also the amount being signed. */
  maxPriceUsdc?: string | number;
  /** Recommended actions that stop the payment (default skip, use_alternatives); ok=false always does. */
  blockActions?: readonly RecommendedAction[];
  /** How long a preflight answer is reused for the same endpoint or quote (default 5 minutes). */
  cacheTtlMs?: number;
  /** Every decision, for the agent's logs. */
  onDecision?: (decision: GuardDecision) => void;
  /**
   * An offline guard (createOfflineGuard): the quote stage decides locally when its signed
   * snapshot holds the endpoint with the very quote being signed, and asks preflight otherwise.
   */
  offline?: Pick<OfflineGuard, "decide">;
  now?: () => number;
}

export type GuardCore = ReturnType<typeof createGuardCore>;

/** The one implementation of the checks: each returns its decision after handing it to onDecision. */
export function createGuardCore(options: CheckOptions) {
  const { failMode, unknown } = readModes(options);
  const maxPriceUsdc = options.maxPriceUsdc === undefined ? undefined : String(options.maxPriceUsdc);
  const policy: GuardPolicy = { blockActions: options.blockActions ?? DEFAULT_BLOCK_ACTIONS, allowUnknown: unknown !== "block", maxPriceUsdc };
  const cache = new PreflightCache<PreflightReport>(options.cacheTtlMs ?? 5 * 60_000, options.now);
  const emit = (d: GuardDecision) => (options.onDecision?.(d), d);

  function judged(url: string, stage: GuardDecision["stage"], v: Omit<QuoteVerdict, "digest"> & { digest?: string }): GuardDecision {
    const d = { url, stage, report: v.report, cached: v.cached, signature: v.report.signature, ...(v.digest ? { requirementDigest: v.digest } : {}) };
    const others = v.reasons.filter((r) => r !== "unknown_endpoint");
    if (!v.report.warnings.includes("unknown_endpoint") || others.length > 0)
      return emit({ ...d, decision: v.reasons.length > 0 ? "block" : "allow", reasons: v.reasons });
    // Nothing but the missing evidence speaks against it: the unknown mode decides.
    if (unknown === "block") return emit({ ...d, decision: "block", reasons: ["unknown_endpoint"], mode: "unknown_block" });
    if (unknown === "warn") return emit({ ...d, decision: "warn", reasons: ["unknown_endpoint"], mode: "unknown_warn" });
    return emit({ ...d, decision: "allow", reasons: [], mode: "unknown_allow" });
  }

  function failed(url: string, stage: GuardDecision["stage"], cached: boolean, error: unknown): GuardDecision {
    if (!isOutage(error)) return emit({ url, stage, decision: "block", reasons: ["check_failed"], cached, error });
    const open = failMode === "open";
    return emit({
      url,
      stage,
      decision: open ? "warn" : "block",
      reasons: ["service_unavailable"],
      mode: open ? "failed_open" : "failed_closed",
      cached,
      error,
    });
  }

  return {
    /** The endpoint's verdict, before anything is sent to it. */
    async endpoint(url: string): Promise<GuardDecision> {
      const { value, cached } = cache.get(url, () => options.lookout.preflight({ url }));
      let report: PreflightReport;
      try {
        report = await value;
      } catch (error) {
        return failed(url, "endpoint", cached, error);
      }
      return judged(url, "endpoint", { report, reasons: blockReasons(report, policy), cached });
    },

    /** The verdict on the requirement selected for signing, bound to its digest (quoteVerdict). */
    async quote(call: GuardedCall, paymentRequired: PaymentRequired, selected: PaymentRequirements): Promise<GuardDecision> {
      const malformed = malformedOf(paymentRequired, selected);
      if (malformed !== null)
        return emit({
          url: call.url,
          stage: "quote",
          decision: "block",
          reasons: ["malformed_quote"],
          cached: false,
          error: new MalformedQuoteError(call.url, malformed),
        });
      const local = options.offline?.decide(call.url, call.method, selected);
      if (local) {
        const reasons = overCap(local.entry.amount, maxPriceUsdc) ? [...local.reasons, "price_above_max" as const] : local.reasons;
        return emit({ url: call.url, stage: "quote", decision: reasons.length > 0 ? "block" : "allow", reasons, cached: false, snapshotEntry: local.entry });
      }
      let cached = false;
      const ask: Parameters<typeof quoteVerdict>[3]["ask"] = (key, input) => {
        const answer = cache.get(key, () => options.lookout.preflight(input));
        cached = answer.cached;
        return answer;
      };
      let verdict: QuoteVerdict;
      try {
        verdict = await quoteVerdict(call, paymentRequired, selected, { ask, policy, reasons: (r) => blockReasons(r, policy) });
      } catch (error) {
        return failed(call.url, "quote", cached, error);
      }
      return judged(call.url, "quote", verdict);
    },

    /** A check that could not be made (no checkable resource): blocks as any failed check does. */
    unchecked: (url: string, error: Error) => failed(url, "quote", false, error),
  };
}
