import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { createJwsSigner, createVerdictSigner, KEY_REFRESH_MS } from "./signer.js";

export interface VerdictSigningDeps {
  db: Pick<DbHandle, "db">;
  clock: Clock;
  /** The issuer the verdicts name: the service's public base URL. */
  issuer: string;
  /** SIGNING_SECRET_KEY: opens the sealed signing key (decision 0031). */
  sealKey?: Buffer | undefined;
  refreshMs?: number;
}

/**
 * The signers over the service's active key: the verdicts' (reports) and one per other JWS type
 * (the offline guard's snapshot). Each signer keeps and refreshes its own copy of the key.
 */
export function createVerdictSigningService({ db: { db }, clock, issuer, sealKey, refreshMs = KEY_REFRESH_MS }: VerdictSigningDeps) {
  return {
    verdict: createVerdictSigner(db, clock, issuer, refreshMs, sealKey),
    jws: (typ: string) => createJwsSigner(db, clock, typ, refreshMs, sealKey),
  };
}

export type VerdictSigningService = ReturnType<typeof createVerdictSigningService>;
