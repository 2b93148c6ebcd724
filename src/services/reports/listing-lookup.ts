import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { createUrlLookup } from "../catalog/listing-queries.js";
import { selectListingRows, type ListingRow } from "../signals/listing-row.js";

/** Listing rows by normalized URL for the preflight routes and forensics (undefined: not catalogued). */
export type ListingLookup = (urlNormalized: string) => Promise<ListingRow | undefined>;

export const createListingLookup = (db: Kysely<Database>): ListingLookup => createUrlLookup(db, "listing-rows", selectListingRows(db, "few"));
