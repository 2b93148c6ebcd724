import { createLocalJWKSet, type JSONWebKeySet } from "jose";
import type { LookoutKeys, PreflightReport } from "@x402-lookout/client";
import { createVerdictVerifier } from "@x402-lookout/client/internal/verdicts";
import { preflightContract } from "@x402-lookout/contracts/preflight/preflight";
import { readPaymentRequired } from "@x402-lookout/contracts/quote";
import type { ReportTarget } from "../services/index.js";

type PreflightInput = { url: string; method?: string; paymentRequired?: Record<string, unknown> };

export interface OwnLookoutDeps {
  baseUrl: string;
  /** The reports service's preflight: the same signed answer the route sells. */
  preflight: (target: ReportTarget) => Promise<unknown>;
  /** The service's published keys (publicJwks), read again for every check: a rotation is seen at once. */
  jwks: () => Promise<JSONWebKeySet>;
}

/**
 * Lookout as the paid checker's guard sees it (decision 0051): the guard (lookoutPolicy) asks this
 * process's own preflight instead of paying the API, and verifies the signed verdict against the
 * published keys like any agent, so the checker signs only a requirement a verdict was bound to.
 */
export function ownLookout(deps: OwnLookoutDeps) {
  let kids: string[] = [];
  let set = createLocalJWKSet({ keys: [] });
  const keys: LookoutKeys = Object.assign((header: Parameters<typeof set>[0], token: Parameters<typeof set>[1]) => set(header, token), {
    refresh: async () => {
      const jwks = await deps.jwks();
      set = createLocalJWKSet(jwks);
      kids = jwks.keys.map((k) => String(k.kid));
    },
    kids: () => kids,
  });
  const verify = createVerdictVerifier(keys);
  return {
    baseUrl: deps.baseUrl,
    async preflight(input: PreflightInput): Promise<PreflightReport> {
      const paymentRequired = input.paymentRequired === undefined ? undefined : (readPaymentRequired(input.paymentRequired) ?? undefined);
      const target: ReportTarget = { url: input.url, ...(input.method ? { method: input.method } : {}), ...(paymentRequired ? { paymentRequired } : {}) };
      // The answer first: the key that signs it may be made by that very call.
      const report = await deps.preflight(target);
      await keys.refresh();
      await verify(preflightContract, input, report, { routeId: "preflight", paymentSent: false });
      return report as PreflightReport;
    },
  };
}
