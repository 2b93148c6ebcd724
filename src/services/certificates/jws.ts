import { SignJWT } from "jose";
import type { CriterionReport } from "./criteria.js";
import { SIGNING } from "./constants.js";
import type { SigningKey } from "./signing-keys.js";

export interface CertificateClaims {
  certId: string;
  url: string;
  name: string;
  tier: "verified";
  listings: number;
  criteria: CriterionReport[];
  pageUrl: string;
  issuedAt: Date;
  validUntil: Date;
  issuer: string;
}

/**
 * The certificate as a compact JWS (a JWT signed with EdDSA): verifiable offline by anyone with
 * the issuer's JWKS. The criteria are summarised (met and observed value per criterion), not the
 * per-listing evidence, which stays on the public page.
 */
export function signCertificate(key: SigningKey, c: CertificateClaims): Promise<string> {
  const summary = Object.fromEntries(c.criteria.map((r) => [r.id, { met: r.met, observed: r.observed, required: r.required }]));
  return new SignJWT({ certId: c.certId, url: c.url, name: c.name, tier: c.tier, listings: c.listings, criteria: summary, pageUrl: c.pageUrl })
    .setProtectedHeader({ alg: SIGNING.alg, kid: key.kid, typ: SIGNING.typ })
    .setIssuer(c.issuer)
    .setSubject(c.url)
    .setJti(c.certId)
    .setIssuedAt(Math.floor(c.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(c.validUntil.getTime() / 1000))
    .sign(key.privateKey);
}
