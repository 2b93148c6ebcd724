import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** Listings (`l`) with their service (`sv`) and provider (`p`), the rows whose names answers show. */
export const listingsWithNames = (db: Kysely<Database>) =>
  db.selectFrom("listings as l").innerJoin("services as sv", "sv.service_id", "l.service_id").leftJoin("providers as p", "p.provider_id", "l.provider_id");

/** A listing's provider as answers name it: the provider's name, else its id (the pay-to address). */
export const providerName = () => sql<string | null>`coalesce(p.name, l.provider_id)`;
