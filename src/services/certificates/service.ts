import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { issueCertificate, type IssueInput } from "./issue.js";
import { listKeys, revokeKey, rotateKey } from "./key-admin.js";
import { isSealedPrivate, sealClearKeys } from "./key-sealing.js";
import { viewCertificate } from "./live-state.js";
import { activeSigningKey, publicJwks } from "./signing-keys.js";

export interface CertificatesDeps {
  db: Pick<DbHandle, "db">;
  clock: Clock;
  /** The issuer's address. */
  publicBaseUrl: string;
  /** SIGNING_SECRET_KEY: seals the signing keys at rest (decision 0031). */
  sealKey?: Buffer | undefined;
}

/** Certificates as routes and pages use them; the issuer's address and the clock are the service's. */
export function createCertificatesService({ db: { db }, clock, publicBaseUrl, sealKey }: CertificatesDeps) {
  const deps = { db, clock, publicBaseUrl, sealKey };
  return {
    issue: (input: IssueInput) => issueCertificate(deps, input),
    /** The certificate with its live state, or undefined for an unknown (or unpaid) id. */
    view: (certId: string) => viewCertificate(deps, certId),
    /** The public keys; the signing key is made first, so verifiers can cache the set before any certificate. */
    async jwks() {
      await activeSigningKey(db, sealKey);
      return publicJwks(db, clock.now());
    },
    /** Operator commands (`npm run lookout -- keys ...`). */
    keys: {
      list: () => listKeys(db),
      rotate: () => rotateKey(db, sealKey, clock.now()),
      revoke: (kid: string) => revokeKey(db, sealKey, kid, clock.now()),
      /**
       * At start: seals keys still kept in clear when a sealing key is set, then opens the active
       * key (made if none), so a missing or wrong SIGNING_SECRET_KEY stops the start, not a request.
       */
      async prepare(): Promise<{ kid: string; sealedNow: number; clear: boolean }> {
        const sealedNow = sealKey ? await sealClearKeys(db, sealKey) : 0;
        const { kid } = await activeSigningKey(db, sealKey);
        const row = await db.selectFrom("signing_keys").select("private_jwk").where("kid", "=", kid).executeTakeFirstOrThrow();
        return { kid, sealedNow, clear: !isSealedPrivate(row.private_jwk) };
      },
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
