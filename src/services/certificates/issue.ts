import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { InvalidInput } from "../errors.js";
import { CERTIFICATE } from "./constants.js";
import { allMet, evaluateCriteria, type CriterionReport } from "./criteria.js";
import { evidenceForScope } from "./evidence.js";
import { signCertificate } from "./jws.js";
import { certificateLinks } from "./links.js";
import { parseScope } from "./scope.js";
import { activeSigningKey } from "./signing-keys.js";

export interface IssueInput {
  url: string;
  name: string;
  /** The x402 payment that bought it: it becomes the certId, so one payment buys one certificate. */
  paymentId?: string;
  payer?: string | null;
}

export interface IssuedCertificate {
  certId: string;
  verified: true;
  tier: "verified";
  url: string;
  name: string;
  badgeUrl: string;
  pageUrl: string;
  jwksUrl: string;
  issuedAt: string;
  validUntil: string;
  listings_covered: number;
  criteria: CriterionReport[];
  jws: string;
}

export type IssueResult =
  { verified: true; certificate: IssuedCertificate } | { verified: false; url: string; name: string; criteria: CriterionReport[]; failed: CriterionReport[] };

export interface IssueDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The issuer: the JWS `iss` and the certificate's links. */
  publicBaseUrl: string;
}

/** Checks every criterion over the covered listings; signs and stores a certificate when all hold. */
export async function issueCertificate(deps: IssueDeps, input: IssueInput): Promise<IssueResult> {
  const parsed = parseScope(input.url);
  if (!parsed.ok) throw new InvalidInput("url", `url: ${parsed.message}`);
  const scope = parsed.scope;
  const listings = await evidenceForScope(deps.db, scope, CERTIFICATE.maxListings + 1);
  if (listings.length > CERTIFICATE.maxListings) {
    throw new InvalidInput("url", `url: the pattern covers more than ${CERTIFICATE.maxListings} listings; certify a narrower origin or path prefix`);
  }
  const criteria = evaluateCriteria(listings);
  if (!allMet(criteria)) return { verified: false, url: scope.pattern, name: input.name, criteria, failed: criteria.filter((c) => !c.met) };

  const certId = input.paymentId ?? randomUUID();
  const issuedAt = deps.clock.now();
  const validUntil = new Date(issuedAt.getTime() + CERTIFICATE.validMs);
  const links = certificateLinks(deps.publicBaseUrl, certId);
  const key = await activeSigningKey(deps.db);
  const jws = await signCertificate(key, {
    certId,
    url: scope.pattern,
    name: input.name,
    tier: "verified",
    listings: listings.length,
    criteria,
    pageUrl: links.pageUrl,
    issuedAt,
    validUntil,
    issuer: deps.publicBaseUrl,
  });
  const row = {
    url_pattern: scope.pattern,
    name: input.name,
    listing_ids: listings.map((l) => l.id),
    tier: "verified" as const,
    verified: true,
    criteria: JSON.stringify({ reports: criteria }),
    jws,
    kid: key.kid,
    issued_at: issuedAt,
    valid_until: validUntil,
    payer_address: input.payer ?? null,
  };
  // A payment whose settlement failed may be retried with the same authorization (the ledger
  // hands back the same payment id): the retry replaces the certificate it had stored.
  await deps.db
    .insertInto("certificates")
    .values({ cert_id: certId, ...row })
    .onConflict((oc) => oc.column("cert_id").doUpdateSet(row))
    .execute();
  return {
    verified: true,
    certificate: {
      certId,
      verified: true,
      tier: "verified",
      url: scope.pattern,
      name: input.name,
      ...links,
      issuedAt: issuedAt.toISOString(),
      validUntil: validUntil.toISOString(),
      listings_covered: listings.length,
      criteria,
      jws,
    },
  };
}
