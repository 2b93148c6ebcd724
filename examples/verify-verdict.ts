// Verifies a signed verdict offline with jose: docs/verdicts.md. With `npm start` running:
//   node --import tsx examples/verify-verdict.ts <signature> [jwks.json]
// Without a saved JWKS file it fetches the service's keys (LOOKOUT_BASE_URL, default http://localhost:8402).
import { readFileSync } from "node:fs";
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet } from "jose";

export async function verifyVerdict(signature: string, keys: { jwks: JSONWebKeySet } | { baseUrl: string }, at?: Date) {
  const jwks = "jwks" in keys ? createLocalJWKSet(keys.jwks) : createRemoteJWKSet(new URL("/.well-known/jwks.json", keys.baseUrl));
  const { payload, protectedHeader } = await jwtVerify(signature, jwks, {
    algorithms: ["EdDSA"],
    typ: "lookout-verdict+jwt",
    // Checks exp (observed_at + 5 minutes) at this time; default now.
    ...(at ? { currentDate: at } : {}),
  });
  return { claims: payload, kid: protectedHeader.kid };
}

if (process.argv[1]?.endsWith("verify-verdict.ts") && process.argv[2]) {
  const [signature, jwksFile] = process.argv.slice(2);
  const keys = jwksFile
    ? { jwks: JSON.parse(readFileSync(jwksFile, "utf8")) as JSONWebKeySet }
    : { baseUrl: process.env.LOOKOUT_BASE_URL ?? "http://localhost:8402" };
  console.log(JSON.stringify(await verifyVerdict(signature!, keys), null, 2));
}
