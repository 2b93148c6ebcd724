import { errors, jwtVerify, type JWTPayload } from "jose";
import type { AnyRouteContract } from "@x402-lookout/contracts";
import { SIGNED_ANSWER_FIELDS, signedValue, VERDICT_JWS, type VerdictClaims } from "@x402-lookout/contracts/verdict";
import { VerdictExpiredError, VerdictKeysUnavailableError, VerdictSignatureError } from "./errors.js";
import { KeysUnavailableError, type LookoutKeys } from "./jwks.js";

type Json = Record<string, unknown>;

export interface VerdictCheck {
  routeId: string;
  paymentSent: boolean;
}

/** How far the agent's clock may run ahead of the service's before a fresh verdict reads as expired. */
export const VERDICT_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * When a verdict's `exp` is judged: "now", the client's clock (default; a stale verdict is a
 * miss), or "observed_at", the answer's own moment, only for archived verdicts checked later.
 */
export type VerdictTime = "now" | "observed_at";

/**
 * Checks the signed verdicts of an answer (docs/verdicts.md) against the service's JWKS (`keys`,
 * createLookoutKeys), and adds the verified claims to each verdict as `verified`. Throws
 * VerdictSignatureError when a signature is missing, does not verify, or signs other values than
 * the answer states; VerdictExpiredError when its exp has passed at `now` (with the tolerance);
 * VerdictKeysUnavailableError when the keys could not be had.
 */
export function createVerdictVerifier(jwks: LookoutKeys, opts: { now?: () => number; at?: VerdictTime; toleranceSeconds?: number } = {}) {
  const now = opts.now ?? Date.now;
  const tolerance = opts.toleranceSeconds ?? VERDICT_CLOCK_TOLERANCE_SECONDS;
  async function verifyOne(v: Json, expect: { url?: string; observedAt: string }, check: VerdictCheck): Promise<void> {
    const init = (code: string, cause?: unknown) => ({
      routeId: check.routeId,
      code,
      status: 200,
      paymentSent: check.paymentSent,
      paymentSettled: check.paymentSent ? true : false,
      cause,
    });
    const fail = (why: string, cause?: unknown) => new VerdictSignatureError(`${check.routeId}: the verdict's signature ${why}`, init("bad_signature", cause));
    if (typeof v.signature !== "string") throw fail("is missing");
    let payload: JWTPayload;
    try {
      // The answer's own observed_at is the sender's word: only an archive check may judge at it.
      const at = opts.at === "observed_at" ? new Date(Date.parse(expect.observedAt)) : new Date(now());
      const verify = { typ: VERDICT_JWS.typ, algorithms: [VERDICT_JWS.alg], currentDate: at, clockTolerance: tolerance };
      ({ payload } = await jwtVerify(v.signature, jwks, verify));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (err instanceof errors.JWTExpired)
        throw new VerdictExpiredError(`${check.routeId}: the verdict expired (${why}): a stale verdict is not a verdict`, init("stale_verdict", err));
      if (err instanceof KeysUnavailableError)
        throw new VerdictKeysUnavailableError(`${check.routeId}: the verdict cannot be checked: ${why}`, init("keys_unavailable", err));
      throw fail(`does not verify (${why})`, err);
    }
    const claims = payload as unknown as VerdictClaims;
    const quote = v.quote as { requirement_digest?: string } | undefined;
    const stated: Array<[string, unknown, unknown]> = [
      ...SIGNED_ANSWER_FIELDS.map((f): [string, unknown, unknown] => [f, signedValue(claims, f), v[f]]),
      ["observed_at", claims.observed_at, expect.observedAt],
      ["requirement_digest", claims.requirement_digest, quote?.requirement_digest ?? null],
      ...(expect.url === undefined ? [] : [["url", claims.url, expect.url] as [string, unknown, unknown]]),
    ];
    const differs = stated.find(([, signed, said]) => JSON.stringify(signed) !== JSON.stringify(said));
    if (differs) throw fail(`signs ${differs[0]} ${JSON.stringify(differs[1])}, the answer says ${JSON.stringify(differs[2])}`);
    Object.defineProperty(v, "verified", { value: claims, enumerable: false });
  }

  return async (contract: AnyRouteContract, input: Json, answer: unknown, check: VerdictCheck): Promise<void> => {
    const a = answer as Json;
    if (contract.signedVerdicts === "answer") {
      return verifyOne(a, { url: typeof input.url === "string" ? input.url : undefined, observedAt: String(a.observed_at) }, check);
    }
    if (contract.signedVerdicts === "results") {
      const results = Array.isArray(a.results) ? (a.results as Json[]) : [];
      await Promise.all(results.map((r) => verifyOne(r, { url: typeof r.url === "string" ? r.url : undefined, observedAt: String(a.observed_at) }, check)));
    }
  };
}

export type VerdictVerifier = ReturnType<typeof createVerdictVerifier>;
