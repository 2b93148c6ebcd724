import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { InvalidInput } from "../errors.js";
import { CERTIFICATE } from "./constants.js";
import { proveControl, type ControlProof } from "./control.js";
import { allMet, evaluateCriteria, type CriterionReport } from "./criteria.js";
import { evidenceForScope } from "./evidence.js";
import { signCertificate } from "./jws.js";
import { certificateLinks } from "./links.js";
import { certificateName } from "./naming.js";
import { parseScope } from "./scope.js";
import { activeSigningKey } from "./signing-keys.js";

export interface IssueInput {
  url: string;
  /** The requested name; without one, the catalog's service name of the covered listings. */
  name?: string;
  /** The x402 payment that bought it: it becomes the certId, so one payment buys one certificate. */
  paymentId?: string;
  /** The x402 payer (null for anything else): paying from the payTo proves control of it. */
  payer?: string | null;
  /** Else a signature by the payTo over this request (control.ts). */
  proof?: ControlProof;
}

export interface IssuedCertificate {
  certId: string;
  verified: true;
  tier: "verified";
  url: string;
  name: string;
  payTo: string;
  host: string;
  provenBy: "payment" | "signature";
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
  | { verified: true; certificate: IssuedCertificate }
  | { verified: false; url: string; name: string | null; criteria: CriterionReport[]; failed: CriterionReport[] };

export interface IssueDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The issuer: the JWS `iss` and the certificate's links. */
  publicBaseUrl: string;
  /** SIGNING_SECRET_KEY: the signing key is sealed under it at rest (decision 0031). */
  sealKey?: Buffer;
}

/**
 * Over the covered listings: control of their payTo (else ClaimRefused), a name that imitates no
 * other provider (else ClaimRefused), then every criterion; signs and stores a certificate when
 * all hold. Control comes first, so only the payTo's controller is told how its endpoints fare.
 */
export async function issueCertificate(deps: IssueDeps, input: IssueInput): Promise<IssueResult> {
  const parsed = parseScope(input.url);
  if (!parsed.ok) throw new InvalidInput("url", `url: ${parsed.message}`);
  const scope = parsed.scope;
  const listings = await evidenceForScope(deps.db, scope, CERTIFICATE.maxListings + 1);
  if (listings.length > CERTIFICATE.maxListings) {
    throw new InvalidInput("url", `url: the pattern covers more than ${CERTIFICATE.maxListings} listings; certify a narrower origin or path prefix`);
  }
  const criteria = evaluateCriteria(listings);
  const refused = (name: string | null) => ({ verified: false as const, url: scope.pattern, name, criteria, failed: criteria.filter((c) => !c.met) });
  if (listings.length === 0) return refused(input.name ?? null);
  const issuedAt = deps.clock.now();
  const control = await proveControl(listings, scope.pattern, { ...input, payer: input.payer ?? null, issuer: deps.publicBaseUrl, now: issuedAt });
  const name = await certificateName(deps.db, listings, scope.pattern, control.payTo, input.name);
  if (!allMet(criteria)) return refused(name);

  const certId = input.paymentId ?? randomUUID();
  const validUntil = new Date(issuedAt.getTime() + CERTIFICATE.validMs);
  const links = certificateLinks(deps.publicBaseUrl, certId);
  const key = await activeSigningKey(deps.db, deps.sealKey);
  const jws = await signCertificate(key, {
    certId,
    url: scope.pattern,
    name,
    payTo: control.payTo,
    host: scope.host,
    provenBy: control.by,
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
    name,
    listing_ids: listings.map((l) => l.id),
    tier: "verified" as const,
    verified: true,
    criteria: JSON.stringify({ reports: criteria }),
    jws,
    kid: key.kid,
    issued_at: issuedAt,
    valid_until: validUntil,
    payer_address: input.payer ?? null,
    pay_to: control.payTo,
    host: scope.host,
    proven_by: control.by,
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
      name,
      payTo: control.payTo,
      host: scope.host,
      provenBy: control.by,
      ...links,
      issuedAt: issuedAt.toISOString(),
      validUntil: validUntil.toISOString(),
      listings_covered: listings.length,
      criteria,
      jws,
    },
  };
}
