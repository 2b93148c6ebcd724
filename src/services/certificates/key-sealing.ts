import type { JWK } from "jose";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { isSealed, openText, sealText, UnsealError } from "../../lib/sealed-box.js";

/**
 * How the private half of a signing key is kept in signing_keys.private_jwk (decision 0031):
 * `{"sealed": base64}` under SIGNING_SECRET_KEY with the kid as associated data; the clear JWK
 * when no sealing key is configured; `{"revoked_at": ISO}` once revoked (the private half erased).
 */
export type StoredPrivate = { sealed: string } | { revoked_at: string } | JWK;

export const storePrivate = (jwk: JWK, kid: string, sealKey: Buffer | undefined): StoredPrivate =>
  sealKey ? { sealed: sealText(sealKey, kid, JSON.stringify(jwk)).toString("base64") } : jwk;

/** The key cannot sign: revoked, sealed without the sealing key here, or sealed under another one. */
export class SigningKeyUnavailable extends Error {
  override name = "SigningKeyUnavailable";
}

const WHY = {
  format: "its stored private half is not a sealed key",
  no_key: "it is sealed and SIGNING_SECRET_KEY is not set",
  wrong_key: "SIGNING_SECRET_KEY is not the key it was sealed with",
} as const;

export function openPrivate(stored: unknown, kid: string, sealKey: Buffer | undefined): JWK {
  const s = stored as Record<string, unknown>;
  if (typeof s.revoked_at === "string") throw new SigningKeyUnavailable(`signing key ${kid} was revoked at ${s.revoked_at}`);
  if (typeof s.sealed !== "string") return s as JWK;
  try {
    return JSON.parse(openText(sealKey, kid, Buffer.from(s.sealed, "base64"))) as JWK;
  } catch (err) {
    if (err instanceof UnsealError) throw new SigningKeyUnavailable(`signing key ${kid} cannot be opened: ${WHY[err.failure]}`);
    throw err;
  }
}

export const isSealedPrivate = (stored: unknown): boolean => {
  const s = (stored ?? {}) as Record<string, unknown>;
  return typeof s.sealed === "string" && isSealed(Buffer.from(s.sealed, "base64"));
};

/**
 * Seals every private key still kept in clear (a `d` member) under `sealKey`. Idempotent and
 * safe beside other processes: each row is rewritten only while it is still clear, so a key
 * sealed by another process meanwhile is left as that process sealed it. Returns how many it sealed.
 */
export async function sealClearKeys(db: Kysely<Database>, sealKey: Buffer): Promise<number> {
  const clear = await db
    .selectFrom("signing_keys")
    .select(["kid", "private_jwk"])
    .where(sql<boolean>`private_jwk ->> 'd' is not null`)
    .execute();
  let sealed = 0;
  for (const row of clear) {
    const r = await db
      .updateTable("signing_keys")
      .set({ private_jwk: JSON.stringify(storePrivate(row.private_jwk as JWK, row.kid, sealKey)) })
      .where("kid", "=", row.kid)
      .where(sql<boolean>`private_jwk ->> 'd' is not null`)
      .executeTakeFirst();
    sealed += Number(r.numUpdatedRows);
  }
  return sealed;
}
