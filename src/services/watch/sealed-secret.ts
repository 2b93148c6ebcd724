import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * How a watch secret is kept so alerts can be signed with it (decision 0025). With a server key
 * (WATCH_SECRET_KEY) it is sealed with AES-256-GCM, the watch id as associated data, so a
 * database dump alone reveals no secret and a sealed value cannot be moved to another watch.
 * Without one it is kept as-is. The first byte says which: 1 sealed (iv 12, tag 16, text), 0 as-is.
 */
const SEALED = 1;
const PLAIN = 0;

export function sealSecret(key: Buffer | undefined, watchId: string, secret: string): Buffer {
  if (!key) return Buffer.concat([Buffer.from([PLAIN]), Buffer.from(secret, "utf8")]);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(watchId, "utf8"));
  const text = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.from([SEALED]), iv, cipher.getAuthTag(), text]);
}

export class SecretUnavailable extends Error {
  constructor(reason: string) {
    super(`the watch secret cannot be opened: ${reason}`);
    this.name = "SecretUnavailable";
  }
}

/** The secret of a sealed value; throws SecretUnavailable when the key is missing or is not the one it was sealed with. */
export function openSecret(key: Buffer | undefined, watchId: string, sealed: Buffer): string {
  if (sealed[0] === PLAIN) return sealed.subarray(1).toString("utf8");
  if (sealed[0] !== SEALED) throw new SecretUnavailable("unknown format");
  if (!key) throw new SecretUnavailable("it was sealed under WATCH_SECRET_KEY, which is not set");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(watchId, "utf8"));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnavailable("WATCH_SECRET_KEY is not the key it was sealed with");
  }
}
