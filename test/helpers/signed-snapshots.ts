import { createHash } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { SNAPSHOT_JWS, SNAPSHOT_LIMITS } from "@x402-lookout/contracts/snapshot/limits";
import type { SnapshotClaims, VerdictDeltas, VerdictEntry, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";

export const SNAPSHOT_BASE = "http://127.0.0.1:8402";
export const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const PAY_TO = "0x1111111111111111111111111111111111111111";

/** A catalogued entry that allows: ok, pay, priced 0.01 USDC on Base Sepolia. */
export const verdictEntry = (url: string, over: Partial<VerdictEntry> = {}): VerdictEntry => ({
  url,
  method: "GET",
  ok: true,
  action: "pay",
  warnings: [],
  reason_codes: [],
  pay_to: PAY_TO,
  asset: USDC,
  network: "eip155:84532",
  amount: "10000",
  price_usdc: "0.01",
  seq: 1,
  ...over,
});

type Removed = VerdictDeltas["removed"][number];

/**
 * Signs snapshots and deltas as the service does (EdDSA over an Ed25519 key, the claims of
 * SnapshotClaimsSchema) and serves the public key as the JWKS through `fetch`. Answers come back
 * through JSON text, as a client receives them.
 */
export async function snapshotSigner(kid = "snapshot-test-key") {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "EdDSA", use: "sig" }] };
  const fetchJwks = (async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.pathname === "/.well-known/jwks.json"
      ? new Response(JSON.stringify(jwks), { headers: { "content-type": "application/json" } })
      : new Response("not found", { status: 404 });
  }) as typeof fetch;

  async function sign(claims: Omit<SnapshotClaims, "iss" | "exp" | "generated_at" | "entries_digest">, covered: unknown, at: number) {
    const generated_at = new Date(at).toISOString();
    const exp = Math.floor(at / 1000) + SNAPSHOT_LIMITS.lifetimeSeconds;
    const entries_digest = createHash("sha256").update(JSON.stringify(covered)).digest("base64url");
    const signature = await new SignJWT({ ...claims, iss: SNAPSHOT_BASE, generated_at, entries_digest, exp })
      .setProtectedHeader({ alg: SNAPSHOT_JWS.alg, typ: SNAPSHOT_JWS.typ, kid })
      .sign(privateKey);
    return { generated_at, expires_at: new Date(exp * 1000).toISOString(), signature };
  }

  const wire = <T>(answer: T): T => JSON.parse(JSON.stringify(answer)) as T;
  return {
    jwks,
    fetch: fetchJwks,
    async snapshot(seq: number, entries: VerdictEntry[], at: number): Promise<VerdictSnapshot> {
      const s = await sign({ kind: "snapshot", since: null, seq, count: entries.length }, [entries], at);
      return wire({ seq, generated_at: s.generated_at, expires_at: s.expires_at, count: entries.length, entries, signature: s.signature });
    },
    async deltas(since: number, seq: number, changed: VerdictEntry[], removed: Removed[], at: number, truncated = false): Promise<VerdictDeltas> {
      const s = await sign({ kind: "deltas", since, seq, count: changed.length + removed.length }, [changed, removed], at);
      return wire({ since, seq, generated_at: s.generated_at, expires_at: s.expires_at, truncated, changed, removed, signature: s.signature });
    },
  };
}

export type SnapshotSigner = Awaited<ReturnType<typeof snapshotSigner>>;
