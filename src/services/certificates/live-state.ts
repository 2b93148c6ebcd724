import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import type { CertificateState } from "./constants.js";
import { allMet, evaluateCriteria, type CriterionReport } from "./criteria.js";
import { evidenceForListings, type ListingEvidence } from "./evidence.js";
import { certificateLinks } from "./links.js";

export interface CertificateView {
  certId: string;
  name: string;
  url: string;
  /** The proven payTo and how it was proven; null for a certificate issued before proof was required. */
  payTo: string | null;
  provenBy: "payment" | "signature" | null;
  /** The host of the certified url (of a legacy row: read from the url). */
  host: string;
  tier: "verified" | "not_verified";
  issuedAt: Date;
  validUntil: Date;
  jws: string | null;
  kid: string | null;
  pageUrl: string;
  badgeUrl: string;
  jwksUrl: string;
  /** What held when it was issued. */
  issuedCriteria: CriterionReport[];
  /** Recomputed from the current snapshots of the listings it covered. */
  state: CertificateState;
  lapsedBecause: string[];
  criteria: CriterionReport[];
  listings: ListingEvidence[];
  checkedAt: Date;
}

export interface CertificateViewDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The service's own base address: the page, badge and JWKS links hang off it. */
  publicBaseUrl: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A certificate with its live state: verified while it is within validUntil and every listing it
 * covered still meets every criterion; lapsed otherwise, with why. A certificate whose payment
 * has not settled (or failed to) does not exist publicly.
 */
export async function viewCertificate(deps: CertificateViewDeps, certId: string): Promise<CertificateView | undefined> {
  if (!UUID.test(certId)) return undefined;
  const row = await deps.db
    .selectFrom("certificates as c")
    .selectAll("c")
    .where("c.cert_id", "=", certId)
    // cert_id is a UUID (checked above and at issue), so the payment lookup uses its primary key.
    .where(sql<boolean>`not exists (select 1 from payments p where p.id = ${certId}::uuid and p.status <> 'settled')`)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = deps.clock.now();
  const listings = await evidenceForListings(deps.db, row.listing_ids);
  // A covered listing deleted from the catalog tables counts as no longer listed.
  const missing = row.listing_ids.length - listings.length;
  const criteria = evaluateCriteria(listings);
  const lapsedBecause: string[] = [];
  if (row.valid_until.getTime() <= now.getTime()) lapsedBecause.push(`expired on ${row.valid_until.toISOString()}`);
  if (missing > 0) lapsedBecause.push(`${missing} covered listing(s) no longer exist`);
  // Decision 0019: a certificate that never proved control of the payTo does not vouch for anyone.
  if (row.pay_to === null) lapsedBecause.push("issued without proof of control of the endpoints' payTo; the provider must request a new certificate");
  for (const c of criteria.filter((c) => !c.met)) lapsedBecause.push(`${c.id} no longer met (${c.description}; observed ${c.observed ?? "no data"})`);
  return {
    certId: row.cert_id,
    name: row.name,
    url: row.url_pattern,
    payTo: row.pay_to,
    provenBy: row.proven_by,
    host: row.host ?? new URL(row.url_pattern.replace(/\*$/, "")).host,
    tier: row.tier,
    issuedAt: row.issued_at,
    validUntil: row.valid_until,
    jws: row.jws,
    kid: row.kid,
    ...certificateLinks(deps.publicBaseUrl, row.cert_id),
    issuedCriteria: ((row.criteria as { reports?: unknown }).reports ?? []) as CriterionReport[],
    state: row.verified && lapsedBecause.length === 0 && allMet(criteria) ? "verified" : "lapsed",
    lapsedBecause,
    criteria,
    listings,
    checkedAt: now,
  };
}
