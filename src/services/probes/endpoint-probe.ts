import { parseChallenge, type PriceContext, priceUsdcOf, selectAccept } from "../quotes/index.js";
import { probeBody } from "./probe-body.js";
import { profileFor, profileHeaders, type ProbeProfile } from "./profiles.js";
import type { HttpClient, HttpFailure, HttpRequest, HttpResponse } from "./http-client.js";
import type { ProbeRecord } from "../evidence/index.js";
import { NO_CHALLENGE } from "./types.js";

/** A claimed listing: what a probe needs to know about it. */
export interface EndpointJob extends PriceContext {
  listingId: number;
  url: string;
  method: string;
  host: string;
  /** The profile the listing's previous probe wore; probes alternate (profiles.ts). */
  previousProfile?: string | null;
  /** The JSON body example the listing's catalog item declares (probe-body.ts); null if none. */
  inputExample?: string | null;
  /** The catalog lists a price above zero: a 2xx without a challenge is then `unchallenged` (decision 0037). */
  paid?: boolean;
}

type Observation = Omit<ProbeRecord, "listingId" | "probedAt" | "profile">;

const BODYLESS = new Set(["GET", "HEAD"]);

/**
 * The naked request of signals.md: the listed method, no payment header, in one client's
 * headers and header order; a body (the declared example, `{}` or none) varied by profile.
 */
export function probeRequest(job: EndpointJob, profile: ProbeProfile): HttpRequest {
  const method = job.method.toUpperCase();
  if (BODYLESS.has(method)) return { url: job.url, method, headers: profileHeaders(profile) };
  const body = probeBody(profile, job.inputExample ?? null);
  const headers = profileHeaders(profile, body.contentType);
  return body.text === null ? { url: job.url, method, headers } : { url: job.url, method, headers, body: body.text };
}

/**
 * Outcome classes (decision 0037): healthy = a 402 with a readable x402 challenge (the terms of
 * the entry that prices the listing kept), or a 2xx of a listing the catalog does not price;
 * unchallenged = a 2xx of a paid listing (it charges nothing now, or it is misconfigured);
 * blocked = the SSRF guard refused the address, nothing was sent; error = every other lack of a
 * response (the kind says why), a 402 without a readable challenge, and every other status.
 */
export function classifyResponse(res: HttpResponse | HttpFailure, price: PriceContext & { paid?: boolean }): Observation {
  const none = { priceUsdc: null, challengeVersion: null, quote: null };
  if (!res.ok) return { outcome: res.kind === "ssrf_blocked" ? "blocked" : "error", statusCode: null, errorKind: res.kind, latencyMs: null, ...none };
  const base = { statusCode: res.status, latencyMs: res.latencyMs };
  if (res.status >= 200 && res.status < 300) return { outcome: price.paid ? "unchallenged" : "healthy", errorKind: null, ...base, ...none };
  if (res.status === 402) {
    const challenge = parseChallenge(res.headers, res.body);
    if (!challenge) return { outcome: "error", errorKind: NO_CHALLENGE, ...base, ...none };
    const quote = selectAccept(challenge, price);
    return { outcome: "healthy", errorKind: null, ...base, priceUsdc: priceUsdcOf(quote), challengeVersion: challenge.x402Version, quote };
  }
  return { outcome: "error", errorKind: null, ...base, ...none };
}

/** Probes one listing; `probedAt` is the business time the probe started. The profile varies (profiles.ts). */
export async function probeEndpoint(
  job: EndpointJob,
  http: HttpClient,
  probedAt: Date,
  profile = profileFor(job.listingId, probedAt, job.previousProfile),
): Promise<ProbeRecord> {
  const res = await http.request(probeRequest(job, profile));
  return { listingId: job.listingId, probedAt, profile, ...classifyResponse(res, job) };
}
