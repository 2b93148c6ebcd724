import { decodeJwt, SignJWT } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { NotFound } from "../errors.js";
import { SIGNING } from "./constants.js";
import { isSealedPrivate } from "./key-sealing.js";
import { activeSigningKey, insertNewKey, RETIRED_KEY_GRACE_MS, type SigningKey } from "./signing-keys.js";

export interface KeyListing {
  kid: string;
  state: "active" | "retired" | "revoked";
  createdAt: Date;
  retiredAt: Date | null;
  /** Whether the private half is sealed at rest (revoked keys have none). */
  sealed: boolean;
  /** Retired keys: until when the JWKS publishes them at least (the verdict grace). */
  publishedUntil: Date | null;
}

export async function listKeys(db: Kysely<Database>): Promise<KeyListing[]> {
  const rows = await db.selectFrom("signing_keys").select(["kid", "private_jwk", "created_at", "retired_at"]).orderBy("created_at").orderBy("kid").execute();
  return rows.map((r) => {
    const revoked = typeof (r.private_jwk as Record<string, unknown>).revoked_at === "string";
    return {
      kid: r.kid,
      state: revoked ? "revoked" : r.retired_at ? "retired" : "active",
      createdAt: r.created_at,
      retiredAt: r.retired_at,
      sealed: isSealedPrivate(r.private_jwk),
      publishedUntil: !revoked && r.retired_at ? new Date(r.retired_at.getTime() + RETIRED_KEY_GRACE_MS) : null,
    };
  });
}

/**
 * Retires the active key and makes a new one active, in one transaction. The retired key stays
 * in the JWKS for the grace (and while a certificate it signed is valid), so outstanding
 * verdicts and snapshots still verify; processes sign with the new key within KEY_REFRESH_MS.
 */
export async function rotateKey(db: Kysely<Database>, sealKey: Buffer | undefined, now: Date): Promise<{ kid: string; retired: string | null }> {
  return db.transaction().execute(async (trx) => {
    const old = await trx
      .updateTable("signing_keys")
      .set({ retired_at: now })
      .where("alg", "=", SIGNING.alg)
      .where("retired_at", "is", null)
      .returning("kid")
      .executeTakeFirst();
    const kid = await insertNewKey(trx, sealKey);
    if (!kid) throw new Error("another rotation made a key active at the same time: run `keys list` and try again");
    return { kid, retired: old?.kid ?? null };
  });
}

export interface Revocation {
  kid: string;
  alreadyRevoked: boolean;
  /** The active key afterwards (a new one when the revoked key was active). */
  active: string;
  /** Valid certificates the revoked key had signed, now signed again by the active key. */
  resigned: number;
}

/**
 * Revokes `kid` (decision 0031): its private half is erased, it leaves the JWKS at once and never
 * signs again; a new key becomes active if it was the active one. Valid certificates it signed
 * are signed again, claims unchanged, with the active key. Throws NotFound for an unknown kid.
 */
export async function revokeKey(db: Kysely<Database>, sealKey: Buffer | undefined, kid: string, now: Date): Promise<Revocation> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("signing_keys").select(["kid", "private_jwk", "retired_at"]).where("kid", "=", kid).forUpdate().executeTakeFirst();
    if (!row) throw new NotFound(`no signing key has kid ${kid} (npm run lookout -- keys list shows them)`, "unknown_kid");
    const alreadyRevoked = typeof (row.private_jwk as Record<string, unknown>).revoked_at === "string";
    if (!alreadyRevoked) {
      await trx
        .updateTable("signing_keys")
        .set({ private_jwk: JSON.stringify({ revoked_at: now.toISOString() }), retired_at: row.retired_at ?? now })
        .where("kid", "=", kid)
        .execute();
    }
    // Cached free trial answers (up to 300 s) carry signatures: none signed by a revoked key is served again.
    if (!alreadyRevoked) await trx.deleteFrom("trial_cache").execute();
    const active = await activeSigningKey(trx, sealKey);
    const resigned = alreadyRevoked ? 0 : await resignCertificates(trx, kid, active, now);
    return { kid, alreadyRevoked, active: active.kid, resigned };
  });
}

async function resignCertificates(db: Kysely<Database>, kid: string, key: SigningKey, now: Date): Promise<number> {
  const certs = await db
    .selectFrom("certificates")
    .select(["cert_id", "jws"])
    .where("kid", "=", kid)
    .where("jws", "is not", null)
    .where("valid_until", ">", now)
    .execute();
  for (const c of certs) {
    const jws = await new SignJWT(decodeJwt(c.jws!)).setProtectedHeader({ alg: SIGNING.alg, kid: key.kid, typ: SIGNING.typ }).sign(key.privateKey);
    await db.updateTable("certificates").set({ jws, kid: key.kid }).where("cert_id", "=", c.cert_id).execute();
  }
  return certs.length;
}
