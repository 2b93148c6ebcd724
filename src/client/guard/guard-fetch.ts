import { LookoutError, LookoutNetworkError, LookoutTimeoutError } from "../errors.js";
import type { LookoutClient } from "../client.js";
import type { AlternativesAnswer, PreflightReport, RecommendedAction } from "../types.js";
import { PreflightBlockedError, PreflightUnavailableError, type BlockReason } from "./errors.js";
import { blockReasons, DEFAULT_BLOCK_ACTIONS, type GuardPolicy } from "./policy.js";
import { PreflightCache } from "./preflight-cache.js";

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
  /** Every decision, for the agent's logs. */
  onDecision?: (decision: GuardDecision) => void;
  now?: () => number;
}

export interface GuardDecision {
  url: string;
  verdict: "allowed" | "blocked" | "failed_open" | "failed_closed";
  reasons: BlockReason[];
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

  async function check(url: string): Promise<void> {
    const { value, cached } = cache.get(url, () => options.lookout.preflight({ url }));
    let report: PreflightReport;
    try {
      report = await value;
    } catch (error) {
      if (options.failOpen && isOutage(error)) return decide({ url, verdict: "failed_open", reasons: [], cached, error });
      decide({ url, verdict: "failed_closed", reasons: [], cached, error });
      throw new PreflightUnavailableError(url, error);
    }
    const reasons = blockReasons(report, policy);
    if (reasons.length === 0) return decide({ url, verdict: "allowed", reasons, report, cached });
    decide({ url, verdict: "blocked", reasons, report, cached });
    throw new PreflightBlockedError(url, report, reasons, options.alternatives ? await alternativesFor(url) : undefined);
  }

  async function alternativesFor(url: string): Promise<AlternativesAnswer | undefined> {
    const opts = typeof options.alternatives === "object" ? options.alternatives : {};
    // None found (404) or the service failing must not hide the block itself.
    return options.lookout.alternatives({ url, ...opts }).catch(() => undefined);
  }

  return async (input, init) => {
    const target = targetOf(new URL(input instanceof Request ? input.url : String(input)));
    if (target !== null) await check(target);
    return fetch(input, init);
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
