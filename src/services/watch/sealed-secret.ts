import { openText, sealText, UnsealError } from "../../lib/sealed-box.js";

/**
 * How a watch secret is kept so alerts can be signed with it (decision 0025): sealed under
 * WATCH_SECRET_KEY with the watch id as associated data (src/lib/sealed-box.ts), or as-is
 * without a key.
 */
export const sealSecret = (key: Buffer | undefined, watchId: string, secret: string): Buffer => sealText(key, watchId, secret);

export class SecretUnavailable extends Error {
  constructor(reason: string) {
    super(`the watch secret cannot be opened: ${reason}`);
    this.name = "SecretUnavailable";
  }
}

const REASONS = {
  format: "unknown format",
  no_key: "it was sealed under WATCH_SECRET_KEY, which is not set",
  wrong_key: "WATCH_SECRET_KEY is not the key it was sealed with",
} as const;

/** The secret of a sealed value; throws SecretUnavailable when the key is missing or is not the one it was sealed with. */
export function openSecret(key: Buffer | undefined, watchId: string, sealed: Buffer): string {
  try {
    return openText(key, watchId, sealed);
  } catch (err) {
    if (err instanceof UnsealError) throw new SecretUnavailable(REASONS[err.failure]);
    throw err;
  }
}
