import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { issueCertificate, type IssueInput } from "./issue.js";
import { viewCertificate } from "./live-state.js";
import { activeSigningKey, publicJwks } from "./signing-keys.js";

/** Certificates as routes and pages use them; the issuer's address and the clock are the service's. */
export function createCertificatesService(db: Kysely<Database>, clock: Clock, publicBaseUrl: string) {
  const deps = { db, clock, publicBaseUrl };
  return {
    issue: (input: IssueInput) => issueCertificate(deps, input),
    /** The certificate with its live state, or undefined for an unknown (or unpaid) id. */
    view: (certId: string) => viewCertificate(deps, certId),
    /** The public keys; the signing key is made first, so verifiers can cache the set before any certificate. */
    async jwks() {
      await activeSigningKey(db);
      return publicJwks(db, clock.now());
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
