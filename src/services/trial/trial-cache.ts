import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { PreflightReport } from "../../http/routes/preflight/schemas.js";
import { TRIAL } from "../signals/constants.js";

/** Trial answers are kept 300 s per URL (spec 8), in the database so API processes share them. */
export async function cachedTrialReport(db: Kysely<Database>, urlNormalized: string, now: Date): Promise<PreflightReport | undefined> {
  const row = await db
    .selectFrom("trial_cache")
    .select("report")
    .where("url_normalized", "=", urlNormalized)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row?.report as PreflightReport | undefined;
}

export async function storeTrialReport(db: Kysely<Database>, urlNormalized: string, report: PreflightReport, now: Date): Promise<void> {
  const expires = new Date(now.getTime() + TRIAL.cacheSeconds * 1000);
  await db
    .insertInto("trial_cache")
    .values({ url_normalized: urlNormalized, report: JSON.stringify(report), created_at: now, expires_at: expires })
    .onConflict((oc) => oc.column("url_normalized").doUpdateSet({ report: JSON.stringify(report), created_at: now, expires_at: expires }))
    .execute();
}
