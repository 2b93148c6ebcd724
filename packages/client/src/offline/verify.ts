import { jwtVerify, type JWTPayload } from "jose";
import { SNAPSHOT_JWS } from "@x402-lookout/contracts/snapshot/limits";
import type { SnapshotClaims, VerdictDeltas, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import type { LookoutKeys } from "../jwks.js";

/** A snapshot or delta answer the offline guard would not apply: the store is left as it was. */
export class SnapshotRefusedError extends Error {
  constructor(
    readonly kind: SnapshotClaims["kind"],
    why: string,
    cause?: unknown,
  ) {
    super(`verdict ${kind} refused: ${why}`, cause === undefined ? undefined : { cause });
    this.name = "SnapshotRefusedError";
  }
}

export type SignedAnswer = { kind: "snapshot"; answer: VerdictSnapshot } | { kind: "deltas"; answer: VerdictDeltas };

/**
 * Checks one answer's signature (EdDSA, typ lookout-snapshot+jwt, the service's JWKS) at `now`,
 * and that it signs this answer: its kind, seq, since, count, generated_at and the digest of its
 * entries as received. Returns until when it speaks (ms): the signed exp, or expires_at if sooner.
 */
export async function verifySignedAnswer(keys: LookoutKeys, signed: SignedAnswer, now: number): Promise<number> {
  const { kind, answer } = signed;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(answer.signature, keys, { typ: SNAPSHOT_JWS.typ, algorithms: [SNAPSHOT_JWS.alg], currentDate: new Date(now) }));
  } catch (err) {
    throw new SnapshotRefusedError(kind, `the signature does not verify (${err instanceof Error ? err.message : String(err)})`, err);
  }
  const claims = payload as unknown as SnapshotClaims;
  // The digest is taken over the objects as parsed: JSON.parse keeps the server's key order.
  const covered = signed.kind === "snapshot" ? [signed.answer.entries] : [signed.answer.changed, signed.answer.removed];
  const stated: Array<[string, unknown, unknown]> = [
    ["kind", claims.kind, kind],
    ["seq", claims.seq, answer.seq],
    ["since", claims.since, signed.kind === "snapshot" ? null : signed.answer.since],
    ["generated_at", claims.generated_at, answer.generated_at],
    ["entries_digest", claims.entries_digest, await sha256Base64url(JSON.stringify(covered))],
  ];
  if (signed.kind === "snapshot") {
    stated.push(["count", claims.count, signed.answer.count], ["entries", signed.answer.count, signed.answer.entries.length]);
  }
  const differs = stated.find(([, signedValue, said]) => signedValue !== said);
  if (differs) throw new SnapshotRefusedError(kind, `it signs ${differs[0]} ${JSON.stringify(differs[1])}, the answer says ${JSON.stringify(differs[2])}`);
  const until = Math.min(claims.exp * 1000, Date.parse(answer.expires_at));
  if (!(until > now)) throw new SnapshotRefusedError(kind, `it expired at ${answer.expires_at}`);
  return until;
}

async function sha256Base64url(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const byte of hash) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
