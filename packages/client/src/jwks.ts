import { createRemoteJWKSet, customFetch } from "jose";
import { VERDICT_JWS } from "@x402-lookout/contracts/verdict";

/** The service's published keys, as jose verifies against them. */
export type LookoutKeys = ReturnType<typeof createRemoteJWKSet>;

/**
 * The JWKS at VERDICT_JWS.jwksPath, fetched once and kept (fetched again only for a key id it
 * does not know, i.e. after a rotation). One per client: its verdict verifier and an offline
 * guard built on it share it.
 */
export function createLookoutKeys(baseUrl: string, fetchImpl: typeof fetch): LookoutKeys {
  return createRemoteJWKSet(new URL(`${baseUrl}${VERDICT_JWS.jwksPath}`), {
    cacheMaxAge: Infinity,
    // jose names itself and its version in a User-Agent: nothing the service needs to know about the caller.
    [customFetch]: (url, init) => {
      const headers = new Headers(init.headers);
      headers.delete("user-agent");
      return fetchImpl(url, { ...(init as RequestInit), headers });
    },
  });
}
