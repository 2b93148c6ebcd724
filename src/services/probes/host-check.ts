import { randomBytes } from "node:crypto";
import { parseChallenge } from "../quotes/index.js";
import { DEFAULT_PROFILE, profileHeaders } from "./profiles.js";
import { HOST_CHECK_PATH_PREFIX, HOST_CHECK_RANDOM_PATHS } from "./constants.js";
import { effectiveCount, type EffectiveCount } from "./effective-count.js";
import type { HttpClient, HttpFailure, HttpResponse } from "./http-client.js";

export interface HostCheckJob {
  host: string;
  /** scheme://host:port of one active listing; null when the host has none left. */
  origin: string | null;
}

export type HostCheckStatus = "wildcard_402" | "spa_fallback" | "clean" | "inconclusive" | "no_listings";

export interface HostCheckResult {
  status: HostCheckStatus;
  wildcard402: boolean;
  spaFallback: boolean;
  effective: EffectiveCount | null;
  evidence: Record<string, unknown>;
  error: string | null;
}

const contentType = (res: HttpResponse) => String(res.headers["content-type"] ?? "").toLowerCase();

function describe(path: string, res: HttpResponse | HttpFailure) {
  if (!res.ok) return { path, error_kind: res.kind };
  return { path, status: res.status, content_type: contentType(res) || null, x402_challenge: parseChallenge(res.headers, res.body) !== null };
}

/**
 * signals.md host check: GET two random paths no catalog lists. Both answer with an x402
 * challenge: the host charges for anything (wildcard_402). Both answer 200 text/html: an app
 * shell answers everything (spa_fallback). A flagged host also gets its effective count. When a
 * request gets no response the check proves nothing and the previous verdict stands.
 */
export async function checkHost(job: HostCheckJob, http: HttpClient): Promise<HostCheckResult> {
  const none = { wildcard402: false, spaFallback: false, effective: null };
  if (!job.origin) return { status: "no_listings", ...none, evidence: {}, error: null };
  const paths = Array.from({ length: HOST_CHECK_RANDOM_PATHS }, () => HOST_CHECK_PATH_PREFIX + randomBytes(8).toString("hex"));
  const responses = await Promise.all(paths.map((p) => http.request({ url: job.origin + p, method: "GET", headers: profileHeaders(DEFAULT_PROFILE) })));
  const evidence: Record<string, unknown> = { origin: job.origin, responses: paths.map((p, i) => describe(p, responses[i]!)) };
  const failed = responses.find((r): r is HttpFailure => !r.ok);
  if (failed) return { status: "inconclusive", ...none, evidence, error: `${failed.kind}: ${failed.message}` };
  const ok = responses as HttpResponse[];
  const wildcard402 = ok.every((r) => r.status === 402 && parseChallenge(r.headers, r.body) !== null);
  const spaFallback = ok.every((r) => r.status === 200 && contentType(r).startsWith("text/html"));
  const effective = wildcard402 || spaFallback ? await effectiveCount(job.origin, http) : null;
  const status = wildcard402 ? "wildcard_402" : spaFallback ? "spa_fallback" : "clean";
  return { status, wildcard402, spaFallback, effective, evidence, error: null };
}
