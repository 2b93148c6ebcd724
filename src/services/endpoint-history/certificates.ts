import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { viewCertificate } from "../certificates/live-state.js";
import type { CertificateSummary } from "./types.js";

/** More than a handful covering one endpoint is renewals; the newest are the ones that matter. */
const SHOWN = 10;

/**
 * The certificates that cover the listing, newest first, each with its live state as its own
 * page computes it (viewCertificate: unpaid ones do not exist publicly).
 */
export async function certificatesOf(deps: { db: Kysely<Database>; clock: Clock; publicBaseUrl: string }, listingId: number): Promise<CertificateSummary[]> {
  const { rows } = await sql<{ cert_id: string }>`
    select cert_id from certificates where ${listingId}::bigint = any(listing_ids) order by issued_at desc limit ${SHOWN}`.execute(deps.db);
  const views = await Promise.all(rows.map((r) => viewCertificate(deps, r.cert_id)));
  return views.filter((v) => v !== undefined).map((v) => ({ certId: v.certId, name: v.name, state: v.state, issuedAt: v.issuedAt, validUntil: v.validUntil }));
}
