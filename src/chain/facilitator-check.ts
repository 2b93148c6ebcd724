import type { SupportedKind } from "@x402/core/types";
import type { Logger } from "../lib/log.js";
import { shownUrl } from "../lib/redact.js";
import type { FacilitatorClient } from "./facilitator.js";

const SUPPORTED_TIMEOUT_MS = 10_000;

/** The remote facilitator does not settle what this service charges; start-up stops on it. */
export class FacilitatorMismatchError extends Error {
  override name = "FacilitatorMismatchError";
}

/**
 * Asks a remote facilitator's /supported, once at start, for x402 v2 "exact" on the configured
 * network. Without it nothing can settle, so start-up stops with one line naming both sides. A
 * facilitator that does not answer may be a passing outage: one warning, and start-up goes on.
 */
export async function checkFacilitatorSupport(
  facilitator: FacilitatorClient,
  opts: { url: string; network: string; timeoutMs?: number },
  log: Logger,
): Promise<void> {
  const wanted = `x402 v2 exact on ${opts.network}`;
  const url = shownUrl(opts.url); // its path or query may hold a key
  let kinds: SupportedKind[];
  try {
    kinds = (await withTimeout(facilitator.getSupported(), opts.timeoutMs ?? SUPPORTED_TIMEOUT_MS)).kinds;
    if (!Array.isArray(kinds)) throw new Error("its answer has no kinds list");
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    log.warn({ facilitator: url, network: opts.network }, `facilitator /supported failed at start-up (${why}); going on, but settlement needs ${wanted}`);
    return;
  }
  if (kinds.some((k) => k.x402Version === 2 && k.scheme === "exact" && k.network === opts.network)) return;
  const offered = kinds.map((k) => `x402 v${k.x402Version} ${k.scheme} on ${k.network}`).join(", ") || "nothing";
  throw new FacilitatorMismatchError(`facilitator ${url} supports ${offered}; configured: ${wanted} (NETWORK=${opts.network}), which it cannot settle`);
}

function withTimeout<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  call.catch(() => {}); // a late failure after the time-out is not unhandled
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}
