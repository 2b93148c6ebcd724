import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { SIGNING } from "./constants.js";
import { openPrivate, storePrivate } from "./key-sealing.js";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey | Uint8Array;
}

const publicOnly = (jwk: JWK, kid: string): JWK => ({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, alg: SIGNING.alg, use: "sig" });

/**
 * The active Ed25519 key, generated on first use and persisted (sealed under `sealKey` when one
 * is given, decision 0031). Processes that race to create it all insert-if-absent against the
 * one-active-key-per-algorithm index, then read back the winner, so every process signs with
 * the same key and the JWKS never disagrees.
 */
export async function activeSigningKey(db: Kysely<Database>, sealKey?: Buffer): Promise<SigningKey> {
  const existing = await readActive(db, sealKey);
  if (existing) return existing;
  await insertNewKey(db, sealKey);
  const winner = await readActive(db, sealKey);
  if (!winner) throw new Error("no active signing key after inserting one");
  return winner;
}

/** Inserts a fresh key as the active one unless one is active already; returns its kid, or null when another was. */
export async function insertNewKey(db: Kysely<Database>, sealKey: Buffer | undefined): Promise<string | null> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING.alg, { crv: SIGNING.crv, extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  const stored = storePrivate({ ...(await exportJWK(privateKey)), kid }, kid, sealKey);
  const r = await db
    .insertInto("signing_keys")
    .values({ kid, alg: SIGNING.alg, public_jwk: JSON.stringify(publicOnly(pub, kid)), private_jwk: JSON.stringify(stored) })
    .onConflict((oc) => oc.doNothing())
    .returning("kid")
    .executeTakeFirst();
  return r?.kid ?? null;
}

async function readActive(db: Kysely<Database>, sealKey: Buffer | undefined): Promise<SigningKey | undefined> {
  const row = await db
    .selectFrom("signing_keys")
    .select(["kid", "private_jwk"])
    .where("alg", "=", SIGNING.alg)
    .where("retired_at", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  return { kid: row.kid, privateKey: await importJWK(openPrivate(row.private_jwk, row.kid, sealKey), SIGNING.alg) };
}

/**
 * A signed snapshot made just before a rotation lives 15 minutes (a verdict 5), plus up to a
 * minute until every process re-reads the key, plus clock skew (decisions 0021 and 0031).
 */
export const RETIRED_KEY_GRACE_MS = 20 * 60_000;

/**
 * The public keys anyone verifies certificates and signed verdicts with: the active key, keys
 * retired within the grace period, and retired keys while a certificate they signed is valid;
 * never a revoked key (decision 0031).
 */
export async function publicJwks(db: Kysely<Database>, now: Date): Promise<{ keys: JWK[] }> {
  const rows = await db
    .selectFrom("signing_keys as k")
    .select(["k.public_jwk"])
    .where(sql<boolean>`k.private_jwk ->> 'revoked_at' is null`)
    .where((eb) =>
      eb.or([
        eb("k.retired_at", "is", null),
        eb("k.retired_at", ">", new Date(now.getTime() - RETIRED_KEY_GRACE_MS)),
        eb.exists(
          eb
            .selectFrom("certificates as c")
            .select(sql`1`.as("one"))
            .whereRef("c.kid", "=", "k.kid")
            .where("c.valid_until", ">", now),
        ),
      ]),
    )
    .orderBy("k.created_at")
    .orderBy("k.kid")
    .execute();
  return { keys: rows.map((r) => r.public_jwk as JWK) };
}
