import { jwtVerify, type JWTPayload } from "jose";
import type { AnyRouteContract } from "@x402-lookout/contracts";
import { SIGNED_ANSWER_FIELDS, VERDICT_JWS, type VerdictClaims } from "@x402-lookout/contracts/verdict";
import { VerdictSignatureError } from "./errors.js";
import type { LookoutKeys } from "./jwks.js";

type Json = Record<string, unknown>;

export interface VerdictCheck {
  routeId: string;
  paymentSent: boolean;
}

/**
 * Checks the signed verdicts of an answer (docs/verdicts.md) against the service's JWKS (`keys`,
 * createLookoutKeys), and adds the verified claims to each verdict as `verified`. Throws
 * VerdictSignatureError when a signature is missing, does not verify, has expired at `now` (when
 * given), or signs other values than the answer states.
 */
export function createVerdictVerifier(jwks: LookoutKeys, now: (() => number) | undefined) {
  async function verifyOne(v: Json, expect: { url?: string; observedAt: string }, check: VerdictCheck): Promise<void> {
    const fail = (why: string, cause?: unknown) =>
      new VerdictSignatureError(`${check.routeId}: the verdict's signature ${why}`, {
        routeId: check.routeId,
        code: "bad_signature",
        status: 200,
        paymentSent: check.paymentSent,
        paymentSettled: check.paymentSent ? true : false,
        cause,
      });
    if (typeof v.signature !== "string") throw fail("is missing");
    let payload: JWTPayload;
    try {
      // Without a clock of the caller's, a fresh answer's expiry is judged at its own observed_at:
      // an agent whose clock is off must not fail every call (docs/verdicts.md).
      const at = now ? new Date(now()) : new Date(Date.parse(expect.observedAt));
      ({ payload } = await jwtVerify(v.signature, jwks, { typ: VERDICT_JWS.typ, algorithms: [VERDICT_JWS.alg], currentDate: at }));
    } catch (err) {
      throw fail(`does not verify (${err instanceof Error ? err.message : String(err)})`, err);
    }
    const claims = payload as unknown as VerdictClaims;
    const quote = v.quote as { requirement_digest?: string } | undefined;
    const stated: Array<[string, unknown, unknown]> = [
      ...SIGNED_ANSWER_FIELDS.map((f): [string, unknown, unknown] => [f, claims[f], v[f]]),
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
