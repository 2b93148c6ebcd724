import type * as CdpX402 from "@coinbase/x402";
import type { FacilitatorConfig } from "@x402/core/http";
import type { CdpApiKey } from "../lib/cdp-key.js";

type AuthHeaders = NonNullable<FacilitatorConfig["createAuthHeaders"]>;

/**
 * CDP's facilitator takes a JWT per call, valid for two minutes and bound to the call's method
 * and URL, so every call signs fresh ones. The URIs come from the configured facilitator URL
 * (@coinbase/x402's own helper hard-codes CDP's). The library loads lazily: it costs about 0.4 s.
 */
export function cdpAuthHeaders(facilitatorUrl: string, key: CdpApiKey): AuthHeaders {
  const { host, pathname } = new URL(facilitatorUrl);
  const base = pathname.replace(/\/+$/, "");
  let lib: Promise<typeof CdpX402> | undefined;
  return async () => {
    const { createAuthHeader, createCorrelationHeader } = await (lib ??= import("@coinbase/x402"));
    const signed = async (method: string, path: string) => ({
      Authorization: await createAuthHeader(key.keyId, key.keySecret, method, host, `${base}/${path}`),
      "Correlation-Context": createCorrelationHeader(),
    });
    const [verify, settle, supported] = await Promise.all([signed("POST", "verify"), signed("POST", "settle"), signed("GET", "supported")]);
    return { verify, settle, supported };
  };
}
