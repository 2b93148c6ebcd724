import { createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { SECRET_BYTES, SIGNING_KEY_INFO } from "./constants.js";

/**
 * A subscription has one shown secret and one derived signing key:
 * - the secret (64 hex characters) authenticates status and unsubscribe; only its SHA-256 is
 *   stored, so a database leak does not hand out control of anyone's watch;
 * - the Standard Webhooks signing key is HKDF-SHA256(secret bytes, info SIGNING_KEY_INFO). HMAC
 *   needs the key itself, so it is stored, but it cannot be turned back into the secret.
 * Receivers get the key as `whsec_<base64>` at subscription (or derive it from the secret).
 */
export interface WatchSecrets {
  secret: string;
  secretHash: Buffer;
  signingKey: Buffer;
}

export function newWatchSecrets(): WatchSecrets {
  const secret = randomBytes(SECRET_BYTES).toString("hex");
  return { secret, secretHash: hashSecret(secret), signingKey: deriveSigningKey(secret) };
}

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
