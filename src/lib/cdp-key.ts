import { createPrivateKey } from "node:crypto";

/** A CDP API key (portal.cdp.coinbase.com): its id and its private key. */
export interface CdpApiKey {
  keyId: string;
  keySecret: string;
}

/**
 * The key secret in a form @coinbase/x402 signs with: base64 Ed25519 (64 bytes, seed then public
 * key) as is, or an EC P-256 PEM (SEC1 or PKCS#8, "\n" escapes allowed) as PKCS#8, the only PEM
 * it reads. undefined when it is neither; callers must not echo the secret.
 */
export function normalizeCdpKeySecret(raw: string): string | undefined {
  const text = raw.trim().replace(/\\n/g, "\n");
  if (!text.includes("-----BEGIN")) {
    return /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, "base64").length === 64 ? text : undefined;
  }
  try {
    const key = createPrivateKey(text);
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") return undefined;
    return key.export({ type: "pkcs8", format: "pem" }).toString();
  } catch {
    return undefined;
  }
}
