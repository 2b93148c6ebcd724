import { parseChallenge, type PriceContext, priceUsdcOf, selectAccept } from "../quotes/index.js";
import { probeBody } from "./probe-body.js";
import { withQuery } from "./probe-query.js";
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
  /** The query example it declares, encoded (probe-query.ts); null if none. Every profile sends it. */
  inputQuery?: string | null;
  /** The catalog lists a price above zero: a 2xx without a challenge is then `unchallenged` (decision 0037). */
  paid?: boolean;
}

type Observation = Omit<ProbeRecord, "listingId" | "probedAt" | "profile">;

const BODYLESS = new Set(["GET", "HEAD"]);
/** A request the server refused as malformed or incomplete: it wants input we did not send (decision 0046). */
const NEEDS_INPUT = new Set([400, 422]);

/**
 * The naked request of signals.md: the listed method, no payment header, in one client's
 * headers and header order; the declared query on the URL (any profile: an agent builds the
 * URL the listing declares); a body (the declared example, `{}` or none) varied by profile.
 */
export function probeRequest(job: EndpointJob, profile: ProbeProfile): HttpRequest {
  const method = job.method.toUpperCase();
  const url = withQuery(job.url, job.inputQuery ?? null);
  if (BODYLESS.has(method)) return { url, method, headers: profileHeaders(profile) };
  const body = probeBody(profile, job.inputExample ?? null);
  const headers = profileHeaders(profile, body.contentType);
  return body.text === null ? { url, method, headers } : { url, method, headers, body: body.text };
}

/**
 * Outcome classes (decision 0037): healthy = a 402 with a readable x402 challenge (the terms of
 * the entry that prices the listing kept), or a 2xx of a listing the catalog does not price;
 * unchallenged = a 2xx of a paid listing (it charges nothing now, or it is misconfigured);
 * blocked = the SSRF guard refused the address, nothing was sent; needs_input = a 400 or 422
 * carrying no challenge (the server validates input before it quotes: decision 0046); error =
 * every other lack of a response (the kind says why), a 402 without a readable challenge, and
 * every other status.
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
  // A challenge on a 400 is not one a client pays (x402 clients pay a 402): an error, not a request for input.
  if (NEEDS_INPUT.has(res.status) && !parseChallenge(res.headers, res.body)) return { outcome: "needs_input", errorKind: null, ...base, ...none };
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
