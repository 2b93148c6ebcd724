import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * A secret kept at rest under a server key (AES-256-GCM, decisions 0025 and 0031): `aad` (the
 * row's id) is authenticated with it, so a sealed value cannot be moved to another row, and a
 * database dump alone reveals nothing. Without a key the text is kept as-is. The first byte says
 * which: 1 sealed (iv 12, tag 16, text), 0 as-is.
 */
const SEALED = 1;
const PLAIN = 0;

export function sealText(key: Buffer | undefined, aad: string, text: string): Buffer {
  if (!key) return Buffer.concat([Buffer.from([PLAIN]), Buffer.from(text, "utf8")]);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.from([SEALED]), iv, cipher.getAuthTag(), data]);
}

/** Whether a value from sealText was sealed under a key (false: kept as-is). */
export const isSealed = (sealed: Buffer): boolean => sealed[0] === SEALED;

/** Why a sealed value did not open: the key is missing, is another one, or the value is no sealText output. */
export type UnsealFailure = "format" | "no_key" | "wrong_key";

export class UnsealError extends Error {
  override name = "UnsealError";
  constructor(readonly failure: UnsealFailure) {
    super(`sealed value did not open: ${failure}`);
  }
}

/** The text of a sealText value; throws UnsealError when the key is missing or is not the one it was sealed with. */
export function openText(key: Buffer | undefined, aad: string, sealed: Buffer): string {
  if (sealed[0] === PLAIN) return sealed.subarray(1).toString("utf8");
  if (sealed[0] !== SEALED || sealed.length < 29) throw new UnsealError("format");
  if (!key) throw new UnsealError("no_key");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString("utf8");
  } catch {
    throw new UnsealError("wrong_key");
  }
}
