import { KeyObject, sign, type webcrypto } from "node:crypto";
import type { Kysely } from "kysely";
import { VERDICT_JWS, type VerdictClaims } from "@x402-lookout/contracts/verdict";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { activeSigningKey } from "../certificates/signing-keys.js";

/** How often the active key is read again, so a rotation reaches every process within a minute. */
export const KEY_REFRESH_MS = 60_000;

interface LoadedKey {
  kid: string;
  key: KeyObject;
  header: string;
  loadedAt: number;
}

export type VerdictSigner = (claims: Omit<VerdictClaims, "iss" | "exp">) => Promise<string>;

/** Signs a payload as compact JWS of type `typ` with the service's active key (EdDSA). */
export type JwsSigner = (payload: object) => Promise<string>;

const b64url = (text: string) => Buffer.from(text).toString("base64url");

/**
 * Signs as compact JWS with the service's active Ed25519 key (the one /.well-known/jwks.json
 * publishes). The key is read once and kept, read again in the background every minute. The
 * Ed25519 signature is made in place (about 50-75 µs here): handing it to libuv's thread pool
 * measured dearer in bench:preflight on a busy 2-core machine (docs/benchmarks.md). The key is
 * opened with `sealKey` (SIGNING_SECRET_KEY) once per load, never per signature (decision 0031).
 */
export function createJwsSigner(db: Kysely<Database>, clock: Clock, typ: string, refreshMs = KEY_REFRESH_MS, sealKey?: Buffer): JwsSigner {
  let current: LoadedKey | null = null;
  let loading: Promise<LoadedKey> | null = null;

  const load = () =>
    (loading ??= activeSigningKey(db, sealKey)
      .then(({ kid, privateKey }) => {
        if (privateKey instanceof Uint8Array) throw new Error(`signing key ${kid} is not an asymmetric key`);
        const key = KeyObject.from(privateKey as unknown as webcrypto.CryptoKey);
        const header = b64url(JSON.stringify({ alg: VERDICT_JWS.alg, kid, typ }));
        return (current = { kid, key, header, loadedAt: clock.now().getTime() });
      })
      .finally(() => (loading = null)));

  async function keyNow(): Promise<LoadedKey> {
    if (!current) return load();
    // A stale key still signs while its successor is read: a failed read keeps it, and retries next call.
    if (clock.now().getTime() - current.loadedAt >= refreshMs && !loading) load().catch(() => undefined);
    return current;
  }

  return async (payload) => {
    const k = await keyNow();
    const input = `${k.header}.${b64url(JSON.stringify(payload))}`;
    return `${input}.${sign(null, Buffer.from(input), k.key).toString("base64url")}`;
  };
}

/** Signs verdicts (typ lookout-verdict+jwt): the claims, the issuer, and exp 5 minutes after observed_at. */
export function createVerdictSigner(db: Kysely<Database>, clock: Clock, issuer: string, refreshMs = KEY_REFRESH_MS, sealKey?: Buffer): VerdictSigner {
  const signJws = createJwsSigner(db, clock, VERDICT_JWS.typ, refreshMs, sealKey);
  return (claims) => signJws({ iss: issuer, ...claims, exp: Math.floor(Date.parse(claims.observed_at) / 1000) + VERDICT_JWS.lifetimeSeconds });
}
