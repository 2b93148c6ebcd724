import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/** A paid answer as a retry with the same payment-identifier gets it back. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the ledger keeps of a payment-identifier: never the id itself. */
export const identifierHash = (id: string): string => createHash("sha256").update(`x402-lookout/payment-identifier\0${id}`).digest("hex");

// The key comes from the identifier, which only the payer and this request ever saw: the sealed
// answer (a watch secret, a credit id) is unreadable to anyone holding just the database or
// the chain's public record of the payment.
const keyOf = (id: string, salt: string) => Buffer.from(hkdfSync("sha256", id, salt, "x402-lookout/sealed-answer", 32));

export function sealAnswer(answer: StoredAnswer, id: string, salt: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(id, salt), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(answer), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
}

/** The answer sealed under `id`, or undefined when it was sealed under another id or altered. */
export function openAnswer(sealed: string, id: string, salt: string): StoredAnswer | undefined {
  const raw = Buffer.from(sealed, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(id, salt), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as StoredAnswer;
  } catch {
    return undefined;
  }
}
