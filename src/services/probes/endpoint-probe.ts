import { parseChallenge, priceUsdcOf, type PriceContext } from "./challenge.js";
import type { HttpClient, HttpFailure, HttpRequest, HttpResponse } from "./http-client.js";
import { NO_CHALLENGE, type ProbeResult } from "./types.js";

/** A claimed listing: what a probe needs to know about it. */
export interface EndpointJob extends PriceContext {
  listingId: number;
  url: string;
  method: string;
  host: string;
}

type Observation = Omit<ProbeResult, "listingId" | "probedAt">;

const BODYLESS = new Set(["GET", "HEAD"]);

/** The naked request of signals.md: the listed method, no payment header, `{}` as body. */
export function probeRequest(job: EndpointJob): HttpRequest {
  const method = job.method.toUpperCase();
  const headers: Record<string, string> = { accept: "application/json, */*" };
  if (BODYLESS.has(method)) return { url: job.url, method, headers };
  return { url: job.url, method, headers: { ...headers, "content-type": "application/json" }, body: "{}" };
}

/**
 * Outcome classes: healthy = 2xx, or 402 with a readable x402 challenge (its price and version
 * kept); error = no response (the kind says why), a 402 without a readable challenge, and every
 * other status (3xx, other 4xx, 5xx).
 */
export function classifyResponse(res: HttpResponse | HttpFailure, price: PriceContext): Observation {
  const none = { priceUsdc: null, challengeVersion: null };
  if (!res.ok) return { outcome: "error", statusCode: null, errorKind: res.kind, latencyMs: null, ...none };
  const base = { statusCode: res.status, latencyMs: res.latencyMs };
  if (res.status >= 200 && res.status < 300) return { outcome: "healthy", errorKind: null, ...base, ...none };
  if (res.status === 402) {
    const challenge = parseChallenge(res.headers, res.body);
    if (!challenge) return { outcome: "error", errorKind: NO_CHALLENGE, ...base, ...none };
    return {
      outcome: "healthy",
      errorKind: null,
      ...base,
      priceUsdc: priceUsdcOf(challenge, price),
      challengeVersion: challenge.version,
    };
  }
  return { outcome: "error", errorKind: null, ...base, ...none };
}

/** Probes one listing; `probedAt` is the business time the probe started. */
export async function probeEndpoint(job: EndpointJob, http: HttpClient, probedAt: Date): Promise<ProbeResult> {
  const res = await http.request(probeRequest(job));
  return { listingId: job.listingId, probedAt, ...classifyResponse(res, job) };
}
