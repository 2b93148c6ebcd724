import type { SupportedKind } from "@x402/core/types";
import { shownUrl } from "../lib/redact.js";
import type { FacilitatorClient } from "./facilitator.js";

const SUPPORTED_TIMEOUT_MS = 10_000;

/** The remote facilitator cannot settle what this service charges (or did not say); start-up stops on it. */
export class FacilitatorMismatchError extends Error {
  override name = "FacilitatorMismatchError";
}

/**
 * Asks a remote facilitator's /supported, once at start, for x402 v2 "exact" on the configured
 * network. Without it nothing can settle, so start-up stops with one line naming both sides. The
 * payment gate cannot price a route without the facilitator's kinds either (the SDK's
 * initialize), so a facilitator that does not answer also stops start-up, with one line.
 */
export async function checkFacilitatorSupport(facilitator: FacilitatorClient, opts: { url: string; network: string; timeoutMs?: number }): Promise<void> {
  const wanted = `x402 v2 exact on ${opts.network}`;
  const url = shownUrl(opts.url); // its path or query may hold a key
  let kinds: SupportedKind[];
  try {
    kinds = (await withTimeout(facilitator.getSupported(), opts.timeoutMs ?? SUPPORTED_TIMEOUT_MS)).kinds;
    if (!Array.isArray(kinds)) throw new Error("its answer has no kinds list");
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new FacilitatorMismatchError(
      `facilitator ${url} did not answer /supported (${why}); payments need ${wanted}, so the service cannot start until it answers`,
    );
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
