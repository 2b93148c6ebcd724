import { SignJWT } from "jose";
import type { CriterionReport } from "./criteria.js";
import { SIGNING } from "./constants.js";
import type { SigningKey } from "./signing-keys.js";

export interface CertificateClaims {
  certId: string;
  url: string;
  name: string;
  /** The payTo whose control the request proved, how, and the host of the url. */
  payTo: string;
  host: string;
  provenBy: "payment" | "signature";
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
  const { certId, url, name, payTo, host, provenBy, tier, listings, pageUrl } = c;
  return new SignJWT({ certId, url, name, payTo, host, provenBy, tier, listings, criteria: summary, pageUrl })
    .setProtectedHeader({ alg: SIGNING.alg, kid: key.kid, typ: SIGNING.typ })
    .setIssuer(c.issuer)
    .setSubject(c.url)
    .setJti(c.certId)
    .setIssuedAt(Math.floor(c.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(c.validUntil.getTime() / 1000))
    .sign(key.privateKey);
}
