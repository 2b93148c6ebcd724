import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { VERDICT_JWS } from "@x402-lookout/contracts/verdict";

/** The service's published keys, as jose verifies against them (a key-getter for jwtVerify). */
export interface LookoutKeys extends JWTVerifyGetKey {
  /** Fetches the key set now (single flight); a key no longer in it stops being trusted. */
  refresh(): Promise<void>;
  /** The key ids of the set last fetched (empty before the first fetch). */
  kids(): string[];
}

export interface LookoutKeysOptions {
  now?: () => number;
  /** The set is fetched again when older than this (default 5 minutes). */
  maxAgeMs?: number;
  /** At most one refetch for an unknown key id in this window (default 10 s). */
  unknownKidPauseMs?: number;
}

/** The key set could not be had: the JWKS did not answer, or a key id is unknown inside the refetch pause. Not a forgery: a miss. */
export class KeysUnavailableError extends Error {
  override name = "KeysUnavailableError";
}

export const JWKS_MAX_AGE_MS = 5 * 60_000;
export const UNKNOWN_KID_PAUSE_MS = 10_000;

/**
 * The JWKS at VERDICT_JWS.jwksPath, kept for at most `maxAgeMs` and fetched again on a key id it
 * does not know (a rotation), at most once per pause: a key removed from the set is no longer
 * trusted after the next fetch (decision 0030). One per client: its verdict verifier and an
 * offline guard built on it share it.
 */
export function createLookoutKeys(baseUrl: string, fetchImpl: typeof fetch, options: LookoutKeysOptions = {}): LookoutKeys {
  const now = options.now ?? Date.now;
  const maxAge = options.maxAgeMs ?? JWKS_MAX_AGE_MS;
  const pause = options.unknownKidPauseMs ?? UNKNOWN_KID_PAUSE_MS;
  const url = `${baseUrl}${VERDICT_JWS.jwksPath}`;
  let set: { local: ReturnType<typeof createLocalJWKSet>; kids: string[]; at: number; seq: number } | null = null;
  let lastUnknownRefetch = -Infinity;
  let inFlight: Promise<void> | null = null;
  // Unknown key ids and the fetch they were first missing from: missing again from a later fetch is conclusive.
  const missing = new Map<string, number>();

  async function load(): Promise<void> {
    let jwks: JSONWebKeySet;
    try {
      // No User-Agent of a library: nothing the service needs to know about the caller.
      const res = await fetchImpl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      jwks = (await res.json()) as JSONWebKeySet;
      if (!Array.isArray(jwks?.keys)) throw new Error("no keys array");
    } catch (err) {
      throw new KeysUnavailableError(`the service's keys (${url}) could not be fetched: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    set = { local: createLocalJWKSet(jwks), kids: jwks.keys.map((k) => String(k.kid)), at: now(), seq: (set?.seq ?? 0) + 1 };
  }
  const refresh = () => (inFlight ??= load().finally(() => (inFlight = null)));

  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (set === null || now() - set.at >= maxAge) await refresh();
    try {
      return await set!.local(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      // A new key id (a rotation) gets one fetch; still unknown after a fetch made since it was first met, it is no key of the service's.
      const kid = String(header.kid);
      const firstMissing = missing.get(kid);
      if (firstMissing !== undefined && set!.seq > firstMissing) throw err;
      if (firstMissing === undefined) {
        if (missing.size >= 64) missing.delete(missing.keys().next().value!);
        missing.set(kid, set!.seq);
      }
      if (now() - lastUnknownRefetch < pause) throw new KeysUnavailableError(`key ${kid} is unknown; the key set is refetched at most once per ${pause} ms`);
      lastUnknownRefetch = now();
      await refresh();
      return set!.local(header, token);
    }
  };
  return Object.assign(getKey, { refresh, kids: () => [...(set?.kids ?? [])] });
}
