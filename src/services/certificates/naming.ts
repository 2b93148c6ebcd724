import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { ClaimRefused } from "../errors.js";
import { CERTIFICATE } from "./constants.js";
import type { ListingEvidence } from "./evidence.js";
import { imitation } from "./name-rules.js";

const MAX_REPORTED = 10;

/** The catalog's service name(s) of the covered listings, as one name of at most 80 characters. */
export function catalogNameOf(listings: readonly ListingEvidence[]): string {
  const chars = [...[...new Set(listings.map((l) => l.serviceName))].sort().join(" / ")];
  return chars.length > CERTIFICATE.nameMaxChars ? `${chars.slice(0, CERTIFICATE.nameMaxChars - 1).join("")}…` : chars.join("");
}

/**
 * The names of catalog services that belong to another provider than `payTo`: a service (one
 * name in the catalog) belongs to whoever listed it first, so a service is another's when an
 * active listing of it paid elsewhere was seen before every one paid to `payTo`. A late
 * listing under a famous name does not make the name its payTo's.
 */
async function othersServiceNames(db: Kysely<Database>, payTo: string): Promise<string[]> {
  const p = payTo.toLowerCase();
  const rows = await db
    .selectFrom("listings as l")
    .innerJoin("services as s", "s.service_id", "l.service_id")
    .select("s.name")
    .where("l.is_active", "=", true)
    .groupBy(["s.service_id", "s.name"])
    .having(
      sql<boolean>`min(l.first_seen_at) filter (where lower(l.pay_to) is distinct from ${p})
        < coalesce(min(l.first_seen_at) filter (where lower(l.pay_to) = ${p}), 'infinity'::timestamptz)`,
    )
    .execute();
  return rows.map((r) => r.name);
}

/**
 * The certificate's name: the requested one, else the catalog's service name of the covered
 * listings. Either is refused (ClaimRefused name_imitates, a 422) when it imitates another
 * provider's service (name-rules.ts), since the badge would speak in that provider's name.
 */
export async function certificateName(
  db: Kysely<Database>,
  listings: readonly ListingEvidence[],
  pattern: string,
  payTo: string,
  requested?: string,
): Promise<string> {
  const catalogName = catalogNameOf(listings);
  const name = requested ?? catalogName;
  const imitated = (await othersServiceNames(db, payTo)).flatMap((service) => {
    const rule = imitation(name, service);
    return rule ? [{ service, rule }] : [];
  });
  if (imitated.length === 0) return name;
  const whose = requested === undefined ? `the catalog's service name of the covered listings, "${name}",` : `the name "${name}"`;
  throw new ClaimRefused(
    "name_imitates",
    `${whose} imitates another provider's catalog service ("${imitated[0]!.service}", ${imitated[0]!.rule}): choose a name of your own; nothing was charged`,
    { url: pattern, name: requested ?? null, catalog_name: catalogName, pay_to: [payTo], imitates: imitated.slice(0, MAX_REPORTED) },
  );
}
