import { createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { SECRET_BYTES, SIGNING_KEY_INFO } from "./constants.js";

/**
 * A subscription has one shown secret (64 hex characters). It authenticates status and
 * unsubscribe, checked against its stored SHA-256 in constant time, and it is the HMAC-SHA256
 * key of every alert (docs/webhooks.md "Headers and verification"): the key bytes are the secret string's own (UTF-8) bytes, shown
 * to Standard Webhooks receivers as `whsec_` + base64 of them (decision 0025). The service keeps
 * the secret sealed (sealed-secret.ts) to sign with it.
 */
export interface WatchSecrets {
  secret: string;
  secretHash: Buffer;
}

export function newWatchSecrets(): WatchSecrets {
  const secret = randomBytes(SECRET_BYTES).toString("hex");
  return { secret, secretHash: hashSecret(secret) };
}

/** The HMAC key of a secret: the exact string the subscriber was given, as bytes. */
export const signingKeyOf = (secret: string): Buffer => Buffer.from(secret, "utf8");

/** The key of watches made before decision 0025 (their receivers were given its whsec_ form). */
export function deriveSigningKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(secret, "hex"), Buffer.alloc(0), SIGNING_KEY_INFO, 32));
}

/** What a receiver passes to `new Webhook(...)` of the standardwebhooks library. */
export const signingSecretOf = (signingKey: Buffer): string => `whsec_${signingKey.toString("base64")}`;

export const hashSecret = (presented: string): Buffer => createHash("sha256").update(presented, "utf8").digest();

// Compared against when the id is unknown, so a miss costs the same work as a wrong secret.
const DECOY_HASH = hashSecret(randomBytes(SECRET_BYTES).toString("hex"));

/**
 * Whether `presented` is the secret behind `storedHash`, in constant time: both sides are
 * fixed-length SHA-256 digests, so neither the secret's length nor its content leaks.
 */
export function secretMatches(storedHash: Buffer | undefined, presented: string | undefined): boolean {
  const expected = storedHash?.length === 32 ? storedHash : DECOY_HASH;
  const equal = timingSafeEqual(expected, hashSecret(presented ?? ""));
  return equal && storedHash !== undefined && presented !== undefined;
}
