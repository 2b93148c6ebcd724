import { AsyncLocalStorage } from "node:async_hooks";
import type { x402Client } from "@x402/core/client";
import { LookoutError, LookoutNetworkError, LookoutTimeoutError } from "../errors.js";
import type { LookoutClient } from "../client.js";
import type { AlternativesAnswer, PreflightReport, RecommendedAction } from "../types.js";
import { PreflightBlockedError, PreflightUnavailableError, type BlockReason } from "./errors.js";
import { blockReasons, DEFAULT_BLOCK_ACTIONS, type GuardPolicy } from "./policy.js";
import { PreflightCache } from "./preflight-cache.js";
import { quoteVerdict, type GuardedCall } from "./quote-check.js";

export interface GuardOptions {
  /** The x402 Lookout client that pays for the checks (its own signer or credit bundle). */
  lookout: Pick<LookoutClient, "baseUrl" | "preflight" | "alternatives">;
  /** Stop payments to endpoints priced above this many USDC (or whose price is unknown). */
  maxPriceUsdc?: string | number;
  /** Let endpoints no catalog lists through when nothing else blocks them (default false). */
  allowUnknown?: boolean;
  /** When the service cannot answer (time-out, network, 5xx), let the request go (default false: fail closed). */
  failOpen?: boolean;
  /** Recommended actions that stop the payment (default skip, use_alternatives); ok=false always does. */
  blockActions?: readonly RecommendedAction[];
  /** On a block, also buy /alternatives (0.005 USDC) and attach them to the error. */
  alternatives?: boolean | { limit?: number; taskClass?: string };
  /** How long a preflight answer is reused for the same endpoint (default 5 minutes). */
  cacheTtlMs?: number;
  /**
   * The endpoint to check for a request, or null to send it unchecked. Default: the URL without
   * query and fragment (catalogs list endpoints, agents add parameters); requests to the Lookout
   * service itself and non-http(s) URLs go unchecked.
   */
  target?: (url: URL) => string | null;
  /**
   * The x402 client behind the paying fetch. Given, the guard also checks each payment when the
   * client is about to sign it: the 402 narrowed to the selected requirement goes to preflight,
   * and the payment is refused (nothing signed, nothing paid) when that verdict blocks or is not
   * bound to the requirement being signed (docs/clients.md).
   */
  x402Client?: Pick<x402Client, "onBeforePaymentCreation">;
  /** Every decision, for the agent's logs. */
  onDecision?: (decision: GuardDecision) => void;
  now?: () => number;
}

export interface GuardDecision {
  url: string;
  verdict: "allowed" | "blocked" | "failed_open" | "failed_closed";
  /** endpoint: the check before any request; quote: the check of the requirement about to be signed. */
  stage: "endpoint" | "quote";
  reasons: BlockReason[];
  /** The quote stage's requirement digest, as the signed verdict binds it. */
  requirementDigest?: string;
  report?: PreflightReport;
  /** Whether the report came from the cache (or from a check already in flight). */
  cached: boolean;
  error?: unknown;
}

const FIVE_MINUTES = 5 * 60_000;

/**
 * Wraps an agent's paying fetch (e.g. @x402/fetch's wrapFetchWithPayment) so that every request
 * is checked with x402 Lookout's preflight before it is sent, and so before any payment: a
 * blocked endpoint gets no request at all, the agent's own payment happens only once the guard
 * lets the request through. It fails closed unless told otherwise.
 */
export function guardFetch(fetch: typeof globalThis.fetch, options: GuardOptions): typeof globalThis.fetch {
  const policy: GuardPolicy = {
    blockActions: options.blockActions ?? DEFAULT_BLOCK_ACTIONS,
    allowUnknown: options.allowUnknown ?? false,
    maxPriceUsdc: options.maxPriceUsdc === undefined ? undefined : String(options.maxPriceUsdc),
  };
  const cache = new PreflightCache<PreflightReport>(options.cacheTtlMs ?? FIVE_MINUTES, options.now);
  const targetOf = options.target ?? defaultTarget(options.lookout.baseUrl);
  const decide = (d: GuardDecision) => options.onDecision?.(d);
  const calls = new AsyncLocalStorage<GuardedCall>();

  async function check(url: string): Promise<void> {
    const { value, cached } = cache.get(url, () => options.lookout.preflight({ url }));
    let report: PreflightReport;
    try {
      report = await value;
    } catch (error) {
      return failed(url, "endpoint", cached, error);
    }
    await judge(url, { report, reasons: blockReasons(report, policy), cached }, "endpoint");
  }

  function failed(url: string, stage: GuardDecision["stage"], cached: boolean, error: unknown): void {
    if (options.failOpen && isOutage(error)) return decide({ url, stage, verdict: "failed_open", reasons: [], cached, error });
    decide({ url, stage, verdict: "failed_closed", reasons: [], cached, error });
    throw error instanceof PreflightUnavailableError ? error : new PreflightUnavailableError(url, error);
  }

  async function judge(url: string, v: { report: PreflightReport; reasons: BlockReason[]; cached: boolean; digest?: string }, stage: GuardDecision["stage"]) {
    const d = { url, stage, reasons: v.reasons, report: v.report, cached: v.cached, ...(v.digest ? { requirementDigest: v.digest } : {}) };
    if (v.reasons.length === 0) return decide({ ...d, verdict: "allowed" });
    decide({ ...d, verdict: "blocked" });
    throw new PreflightBlockedError(url, v.report, v.reasons, options.alternatives ? await alternativesFor(url) : undefined);
  }

  // Runs inside the x402 client's payment creation, for the calls this guard let through.
  options.x402Client?.onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
    const call = calls.getStore();
    if (!call) return;
    try {
      const ask = (key: string, input: Parameters<GuardOptions["lookout"]["preflight"]>[0]) => cache.get(key, () => options.lookout.preflight(input));
      const verdict = await quoteVerdict(call, paymentRequired, selectedRequirements, { ask, policy, reasons: (r) => blockReasons(r, policy) }).catch(
        (error: unknown) => void failed(call.url, "quote", false, error),
      );
      if (verdict) await judge(call.url, verdict, "quote");
    } catch (refusal) {
      call.refusal = refusal;
      return { abort: true, reason: refusal instanceof Error ? refusal.message : String(refusal) };
    }
  });

  async function alternativesFor(url: string): Promise<AlternativesAnswer | undefined> {
    const opts = typeof options.alternatives === "object" ? options.alternatives : {};
    // None found (404) or the service failing must not hide the block itself.
    return options.lookout.alternatives({ url, ...opts }).catch(() => undefined);
  }

  return async (input, init) => {
    const target = targetOf(new URL(input instanceof Request ? input.url : String(input)));
    if (target === null) return fetch(input, init);
    await check(target);
    const call: GuardedCall = { url: target, method: (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase() };
    try {
      return await calls.run(call, () => fetch(input, init));
    } catch (err) {
      // The SDK wraps a refused payment in a plain Error; the agent gets the guard's own.
      throw call.refusal ?? err;
    }
  };
}

function defaultTarget(lookoutBase: string): (url: URL) => string | null {
  return (url) => {
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const address = `${url.origin}${url.pathname}`;
    if (address === lookoutBase || address.startsWith(`${lookoutBase}/`)) return null;
    return address;
  };
}

/** The service could not answer; a refused payment or a bad request is not an outage. */
function isOutage(error: unknown): boolean {
  if (error instanceof LookoutTimeoutError || error instanceof LookoutNetworkError) return true;
  return error instanceof LookoutError && error.status !== null && (error.status >= 500 || error.status === 429);
}
