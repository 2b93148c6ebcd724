import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { LookoutClient } from "../client.js";
import type { OfflineDecision } from "../offline/decide.js";
import type { OfflineGuard } from "../offline/types.js";
import { VerdictExpiredError } from "../errors.js";
import { VERDICT_CLOCK_TOLERANCE_SECONDS } from "../verdicts.js";
import type { PreflightReport, RecommendedAction, Verified } from "../types.js";
import type { GuardDecision } from "./decision.js";
import { isOutage, readModes, type ModeOptions } from "./modes.js";
import { blockReasons, DEFAULT_BLOCK_ACTIONS, type GuardPolicy } from "./policy.js";
import { PreflightCache } from "./preflight-cache.js";
import { QuoteRefusedError, type LocalRefusal } from "./errors.js";
import { lookoutRoutePrice, requestAddress } from "./lookout-route.js";
import { malformedOf, overCap, quoteVerdict, resourceOf, signedAmount, type GuardedCall, type QuoteVerdict } from "./quote-check.js";
import type { TappedRequest } from "./request-tap.js";
import { defaultTarget } from "./target.js";

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
   * An offline guard (createOfflineGuard): both stages decide locally when its unexpired signed
   * snapshot holds the endpoint (at the quote stage, with the very quote being signed) and ask
   * preflight otherwise.
   */
  offline?: Pick<OfflineGuard, "decide">;
  now?: () => number;
  /**
   * The endpoint to check for a request, or null to pay it unchecked (your choice, not the
   * 402's). Default: the request URL without query and fragment.
   */
  target?: (url: URL) => string | null;
}

export type GuardCore = ReturnType<typeof createGuardCore>;

/** The one implementation of the checks: each returns its decision after handing it to onDecision. */
export function createGuardCore(options: CheckOptions) {
  const { failMode, unknown } = readModes(options);
  const maxPriceUsdc = options.maxPriceUsdc === undefined ? undefined : String(options.maxPriceUsdc);
  const policy: GuardPolicy = { blockActions: options.blockActions ?? DEFAULT_BLOCK_ACTIONS, allowUnknown: unknown !== "block", maxPriceUsdc };
  const now = options.now ?? Date.now;
  // A kept verdict past its signed exp at the agent's clock is a miss: asked again, never reused.
  const expOf = (r: PreflightReport) => (r as Partial<Verified>).verified?.exp;
  const unexpired = (r: PreflightReport) => (expOf(r) ?? Infinity) * 1000 > now();
  // Whatever the client's verdictTime: a verdict past its exp (beyond the skew tolerance) at the guard's clock never passes.
  const stale = (url: string, r: PreflightReport) =>
    (expOf(r) ?? Infinity) * 1000 + VERDICT_CLOCK_TOLERANCE_SECONDS * 1000 <= now()
      ? new VerdictExpiredError(`preflight: the verdict on ${url} expired at ${new Date(expOf(r)! * 1000).toISOString()} by the guard's clock`, {
          routeId: "preflight",
          code: "stale_verdict",
          status: 200,
          paymentSent: false,
          paymentSettled: false,
        })
      : null;
  const cache = new PreflightCache<PreflightReport>(options.cacheTtlMs ?? 5 * 60_000, now, undefined, unexpired);
  // A stale answer (a mirror replaying one, a slow path) is asked once more; stale again, failMode decides.
  const preflight = (input: Parameters<typeof options.lookout.preflight>[0]) =>
    options.lookout.preflight(input).catch((err: unknown) => {
      if (err instanceof VerdictExpiredError) return options.lookout.preflight(input);
      throw err;
    });
  const emit = (d: GuardDecision) => (options.onDecision?.(d), d);
  const lookoutBase = options.lookout.baseUrl;
  const targetOf = options.target ?? defaultTarget(lookoutBase);

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
    const isStale = error instanceof VerdictExpiredError;
    if (!isStale && !isOutage(error)) return emit({ url, stage, decision: "block", reasons: ["check_failed"], cached, error });
    const open = failMode === "open";
    return emit({
      url,
      stage,
      decision: open ? "warn" : "block",
      reasons: [isStale ? "stale_verdict" : "service_unavailable"],
      mode: open ? "failed_open" : "failed_closed",
      cached,
      error,
    });
  }

  // A snapshot entry's decision: its price under the cap (unknown is over it, as preflight's metadata would be).
  function fromSnapshot(url: string, stage: GuardDecision["stage"], local: OfflineDecision): GuardDecision {
    const price =
      maxPriceUsdc === undefined
        ? []
        : local.entry.amount === null
          ? ["price_unknown" as const]
          : overCap(local.entry.amount, maxPriceUsdc)
            ? ["price_above_max" as const]
            : [];
    const reasons = [...local.reasons, ...price];
    return emit({ url, stage, decision: reasons.length > 0 ? "block" : "allow", reasons, cached: false, snapshotEntry: local.entry });
  }

  return {
    /** The endpoint's verdict, before anything is sent to it: the snapshot's when it holds the endpoint. */
    async endpoint(url: string, method?: string): Promise<GuardDecision> {
      const local = options.offline?.decide(url, method);
      if (local) return fromSnapshot(url, "endpoint", local);
      const { value, cached } = cache.get(url, () => preflight({ url }));
      let report: PreflightReport;
      try {
        report = await value;
      } catch (error) {
        return failed(url, "endpoint", cached, error);
      }
      const expired = stale(url, report);
      if (expired) return failed(url, "endpoint", cached, expired);
      return judged(url, "endpoint", { report, reasons: blockReasons(report, policy), cached });
    },

    /** The verdict on the requirement selected for signing, bound to its digest (quoteVerdict). */
    async quote(call: GuardedCall, paymentRequired: PaymentRequired, selected: PaymentRequirements): Promise<GuardDecision> {
      const local = options.offline?.decide(call.url, call.method, selected);
      if (local) return fromSnapshot(call.url, "quote", local);
      let cached = false;
      const ask: Parameters<typeof quoteVerdict>[3]["ask"] = (key, input) => {
        const answer = cache.get(key, () => preflight(input));
        cached = answer.cached;
        return answer;
      };
      let verdict: QuoteVerdict;
      try {
        verdict = await quoteVerdict(call, paymentRequired, selected, { ask, policy, reasons: (r) => blockReasons(r, policy) });
      } catch (error) {
        return failed(call.url, "quote", cached, error);
      }
      const expired = stale(call.url, verdict.report);
      return expired ? failed(call.url, "quote", cached, expired) : judged(call.url, "quote", verdict);
    },

    /**
     * A payment about to be signed for the request the agent made (never the 402's own claim of
     * a resource): refused locally when it reads two ways, names another resource, or is unknown;
     * unchecked (null) only for the Lookout service's own route at its listed price.
     */
    async payment(request: TappedRequest | null, paymentRequired: PaymentRequired, selected: PaymentRequirements): Promise<GuardDecision | null> {
      const refuse = (url: string, reason: LocalRefusal, detail: string) =>
        emit({ url, stage: "quote", decision: "block", reasons: [reason], cached: false, error: new QuoteRefusedError(url, reason, detail) });
      if (request === null)
        return refuse("(unknown)", "request_unknown", "the request this 402 answered is unknown (send requests through policy.fetch or policy.axios)");
      const url = requestAddress(request.url) ?? request.url;
      const malformed = malformedOf(paymentRequired, selected);
      if (malformed !== null)
        return refuse(url, "malformed_quote", `the requirement's amount is malformed (${malformed}): what would be signed is not what can be checked`);
      const own = lookoutRoutePrice(lookoutBase, request);
      if (own !== undefined) {
        if (own !== null && signedAmount(paymentRequired, selected) === own) return null;
        return refuse(
          url,
          "lookout_price_mismatch",
          `the Lookout service's ${request.method} ${url} asks ${signedAmount(paymentRequired, selected)}, its listed price is ${own ?? "none"}`,
        );
      }
      const claim = resourceOf(paymentRequired, selected);
      if (claim !== null && requestAddress(claim) !== url)
        return refuse(url, "resource_mismatch", `the 402 names another resource (${claim}) than the one requested`);
      const target = targetOf(new URL(request.url));
      return target === null ? null : this.quote({ url: target, method: request.method }, paymentRequired, selected);
    },
  };
}
