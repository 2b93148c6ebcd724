import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { HOUR } from "../signals/constants.js";
import { DATASET } from "./constants.js";

/** How much probe evidence the database holds, and when the next public build is due. */
export interface DatasetEvidence {
  /** The earliest probe held (raw, or the end of the earliest hourly rollup); null before any. */
  since: Date | null;
  /** Whole hours of evidence, at most the 7-day window (168). */
  hours: number;
  /** Probes in the last 7 days over active listings, and how many of those listings were probed. */
  probes7d: number;
  endpoints: number;
  /** Hours the first build waits for (DATASET_MIN_EVIDENCE_HOURS). */
  minHours: number;
  /** Newest build time, or null before the first build. */
  newestBuildAt: Date | null;
  /** When a build is due: a week after the newest, else once minHours exist; null before any probe. */
  nextBuildAt: Date | null;
}

const windowHours = DATASET.windowMs / HOUR;
const time = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date));

export async function datasetEvidence(db: Kysely<Database>, now: Date, minHours: number): Promise<DatasetEvidence> {
  const [raw, hourly, probed, newest] = await Promise.all([
    db
      .selectFrom("probes")
      .select((eb) => eb.fn.min("probed_at").as("at"))
      .executeTakeFirst(),
    db
      .selectFrom("probe_hourly")
      .select((eb) => eb.fn.min("bucket").as("at"))
      .executeTakeFirst(),
    db
      .selectFrom("signal_snapshots as s")
      .innerJoin("listings as l", "l.id", "s.listing_id")
      .where("l.is_active", "=", true)
      .where("s.probes_7d", ">", 0)
      .select([sql<string>`coalesce(sum(s.probes_7d), 0)::text`.as("probes"), sql<string>`count(*)::text`.as("endpoints")])
      .executeTakeFirst(),
    db
      .selectFrom("datasets")
      .select((eb) => eb.fn.max("built_at").as("at"))
      .executeTakeFirst(),
  ]);
  // A rollup bucket is stamped at its hour's start: count it from the hour's end, never earlier.
  const candidates = [time(raw?.at), time(hourly?.at) && new Date(time(hourly?.at)!.getTime() + HOUR)].filter((d): d is Date => d !== null);
  const since = candidates.length ? new Date(Math.min(...candidates.map((d) => d.getTime()))) : null;
  const hours = since ? Math.min(windowHours, Math.max(0, Math.floor((now.getTime() - since.getTime()) / HOUR))) : 0;
  const newestBuildAt = time(newest?.at);
  const nextBuildAt = newestBuildAt ? new Date(newestBuildAt.getTime() + DATASET.rebuildAfterMs) : since && new Date(since.getTime() + minHours * HOUR);
  return { since, hours, probes7d: Number(probed?.probes ?? 0), endpoints: Number(probed?.endpoints ?? 0), minHours, newestBuildAt, nextBuildAt };
}
