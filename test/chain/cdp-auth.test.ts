import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { loadConfig } from "../../src/config.js";
import { startFakeSupported } from "../helpers/fake-supported.js";

/**
 * Issue 21 item 3: with CDP_API_KEY_ID/CDP_API_KEY_SECRET, every facilitator call carries a fresh
 * JWT (through @coinbase/x402) that the key's public half verifies. Keys are made here, in the
 * two formats CDP hands out: base64 Ed25519 (seed then public key) and an EC P-256 PEM.
 */
function ed25519Key(): { secret: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" });
  return { secret: Buffer.concat([Buffer.from(jwk.d!, "base64url"), Buffer.from(jwk.x!, "base64url")]).toString("base64"), publicKey };
}
function ecKey(): { secret: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  // CDP's older keys are SEC1 PEM, often pasted into .env with "\n" escapes.
  return { secret: privateKey.export({ type: "sec1", format: "pem" }).toString().replace(/\n/g, "\\n"), publicKey };
}

let fake: Awaited<ReturnType<typeof startFakeSupported>>;
beforeAll(async () => {
  fake = await startFakeSupported([{ x402Version: 2, scheme: "exact", network: "eip155:8453" }]);
});
afterAll(() => fake?.close());

describe("CDP facilitator auth", () => {
  it.each([
    ["Ed25519", ed25519Key, "EdDSA"],
    ["EC P-256", ecKey, "ES256"],
  ] as const)("signs every call with a fresh JWT from a %s key", async (_kind, makeKey, alg) => {
    const { secret, publicKey } = makeKey();
    const keyId = "organizations/org-1/apiKeys/key-1";
    const config = loadConfig({ FACILITATOR_URL: fake.url, PAY_TO: `0x${"11".repeat(20)}`, CDP_API_KEY_ID: keyId, CDP_API_KEY_SECRET: secret });
    const facilitator = createRemoteFacilitator(config.facilitatorUrl!, config.cdpApiKey);
    fake.requests.length = 0;
    await facilitator.getSupported();
    await facilitator.getSupported();

    const tokens = fake.requests.map((r) => {
      expect(r.headers["correlation-context"]).toContain("source=x402");
      const auth = r.headers.authorization ?? "";
      expect(auth).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      return auth.slice("Bearer ".length);
    });
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).not.toBe(tokens[1]);
    for (const token of tokens) {
      const { payload, protectedHeader } = await jwtVerify(token, publicKey, { issuer: "cdp", subject: keyId, algorithms: [alg] });
      expect(payload.uris).toEqual([`GET ${new URL(fake.url).host}/supported`]);
      expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
      expect(protectedHeader.kid).toBe(keyId);
    }
    expect(decodeProtectedHeader(tokens[0]!).nonce).not.toBe(decodeProtectedHeader(tokens[1]!).nonce);
  });

  it("binds each JWT to the call's method and the configured facilitator path", async () => {
    const { secret, publicKey } = ed25519Key();
    const facilitator = createRemoteFacilitator(`${fake.url}/platform/v2/x402/`, { keyId: "k", keySecret: secret });
    fake.requests.length = 0;
    // The fake answers 404 off its root; the requests are what matters here.
    await facilitator.getSupported().catch(() => undefined);
    await facilitator.verify({} as never, {} as never).catch(() => undefined);
    const seen = await Promise.all(
      fake.requests.map(async (r) => `${r.method} ${r.path}: ${(await jwtVerify(r.headers.authorization!.slice("Bearer ".length), publicKey)).payload.uris}`),
    );
    const host = new URL(fake.url).host;
    expect(seen).toEqual([
      `GET /platform/v2/x402/supported: GET ${host}/platform/v2/x402/supported`,
      `POST /platform/v2/x402/verify: POST ${host}/platform/v2/x402/verify`,
    ]);
  });
});
