import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";

const SEEN = new Date("2026-11-01T00:00:00.000Z");

/** Inserts `count` active listings of one service; returns their ids. */
export async function insertListings(db: Kysely<Database>, count: number, service = "svc"): Promise<number[]> {
  await db
    .insertInto("services")
    .values({ service_id: service, name: service, origin: `https://${service}.example`, first_seen_at: SEEN, last_seen_at: SEEN })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const rows = await db
    .insertInto("listings")
    .values(
      Array.from({ length: count }, (_, i) => ({
        url: `https://${service}.example/r${i}`,
        url_normalized: `https://${service}.example/r${i}`,
        service_id: service,
        host: `${service}.example`,
        source_url: "https://catalog.example/discovery",
        first_seen_at: SEEN,
        last_seen_at: SEEN,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}
