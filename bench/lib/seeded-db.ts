import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { ManualClock } from "../../src/lib/clock.js";
import { recomputeSnapshots } from "../../src/services/evidence/index.js";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";
import { admin, withDatabase } from "../../test/helpers/db.js";
import { databaseExists, openBenchDb, type BenchDb } from "./bench-db.js";
import { seedCatalog } from "./seed-catalog.js";

export interface SeededDb {
  db: BenchDb;
  /** The time the catalog was seeded for; a benchmark's manual clock starts here. */
  now: Date;
  /** How the data got there, for the benchmark's first line. */
  origin: string;
}

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Seeded PGlite folders kept between runs (git-ignored); delete it to seed again. */
const CACHE = join(root, ".bench-cache");

/**
 * A database holding `listings` catalogued endpoints with 7 days of hourly history and fresh
 * snapshots (verdicts are left to the caller, which times them).
 *
 * Seeding 100,000 listings x 168 hours takes about 7 minutes on PostgreSQL and over 15 in
 * PGlite's WebAssembly, so a seeded database is kept between runs, keyed by the listing count
 * and the code that shapes the data (the seed and the snapshot SQL): on PostgreSQL
 * (BENCH_DATABASE_URL) as a template database `lookout_bench_seed_<listings>_<key>` that each
 * run copies with CREATE DATABASE ... TEMPLATE; on PGlite as a data folder in .bench-cache that
 * each run copies. Every run starts from the same bytes and none sees another's writes; opening
 * the copy applies any migration newer than the seed, as a service's own database gets after an
 * upgrade. Drop the template or delete the folder to seed again. A caller that fixes `now`
 * (a benchmark on the system clock) gets a freshly seeded database instead.
 */
export async function openSeededDb(o: { listings: number; now?: Date; poolSize?: number }): Promise<SeededDb> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const t0 = performance.now();
  if (o.now) {
    const db = await openBenchDb(serverUrl, { poolSize: o.poolSize });
    await seed(db, o.listings, o.now);
    return { db, now: o.now, origin: `seeded in ${seconds(t0)} s` };
  }
  if (serverUrl) {
    const template = await pgTemplate(serverUrl, o.listings);
    await upgrade(await openDatabase({ databaseUrl: withDatabase(serverUrl, template), poolSize: 1 }));
    const db = await openBenchDb(serverUrl, { poolSize: o.poolSize, template });
    const row = await db.db.selectFrom("app_state").select("value").where("key", "=", SEED_KEY).executeTakeFirstOrThrow();
    return { db, now: new Date((row.value as { now: string }).now), origin: `copied from template database ${template} in ${seconds(t0)} s` };
  }
  const cached = join(CACHE, `pglite-${o.listings}-${seedKey()}`);
  if (!existsSync(join(cached, "seed.json"))) await buildCache(cached, o.listings);
  await upgrade(await openDatabase({ dataDir: join(cached, "data") }));
  const { now } = JSON.parse(readFileSync(join(cached, "seed.json"), "utf8")) as { now: string };
  const copy = mkdtempSync(join(tmpdir(), "lookout-bench-"));
  cpSync(join(cached, "data"), copy, { recursive: true });
  const db = await openBenchDb(undefined, { dataDir: copy });
  const close = async () => {
    await db.close();
    rmSync(copy, { recursive: true, force: true });
  };
  return { db: { ...db, close }, now: new Date(now), origin: `copied from ${cached} in ${seconds(t0)} s` };
}

async function seed(db: DbHandle, listings: number, now: Date): Promise<void> {
  await seedCatalog(db.db, { listings, historyHours: 168, now });
  await recomputeSnapshots({ db, clock: new ManualClock(now) });
  // Freshly written rows carry no hint bits: every copy's first read of a page would look up the
  // commit log and write the page back, so a benchmark would time that instead of its queries.
  // Freezing once here settles every page; the statistics come along.
  await sql`vacuum (freeze, analyze)`.execute(db.db);
}

/**
 * Applies migrations newer than the seed to the seeded database itself, once, so that no run
 * spends its time migrating its copy (a new index over 16.8 million hourly rows takes a minute);
 * a vacuum then settles what the migration rewrote.
 */
async function upgrade(h: DbHandle): Promise<void> {
  try {
    if ((await migrate(h.db)).applied.length > 0) await sql`vacuum (freeze, analyze)`.execute(h.db);
  } finally {
    await h.close();
  }
}

const SEED_KEY = "bench_seed";

/** The template database for this seed, seeded first if the server has none. */
async function pgTemplate(serverUrl: string, listings: number): Promise<string> {
  const name = `lookout_bench_seed_${listings}_${seedKey()}`;
  if (await databaseExists(serverUrl, name)) return name;
  const building = `${name}_building_${process.pid}`;
  console.log(`seeding ${listings} listings into template database ${name} (once; later runs copy it)`);
  const t0 = performance.now();
  await admin(serverUrl, `create database ${building}`);
  const h = await openDatabase({ databaseUrl: withDatabase(serverUrl, building), poolSize: 2 });
  const now = new Date();
  try {
    await migrate(h.db);
    await seed(h, listings, now);
    await h.db
      .insertInto("app_state")
      .values({ key: SEED_KEY, value: JSON.stringify({ now: now.toISOString(), listings }), updated_at: now })
      .execute();
  } catch (err) {
    await h.close();
    await admin(serverUrl, `drop database if exists ${building} with (force)`);
    throw err;
  }
  await h.close();
  await admin(serverUrl, `alter database ${building} rename to ${name}`);
  console.log(`seeded in ${seconds(t0)} s`);
  return name;
}

async function buildCache(cached: string, listings: number): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const building = `${cached}.building-${process.pid}`;
  const now = new Date();
  console.log(`seeding ${listings} listings on PGlite into ${cached} (once; later runs copy it)`);
  const t0 = performance.now();
  const db = await openBenchDb(undefined, { dataDir: join(building, "data") });
  await seed(db, listings, now);
  await db.close();
  writeFileSync(join(building, "seed.json"), JSON.stringify({ now: now.toISOString(), listings }));
  renameSync(building, cached);
  console.log(`seeded in ${seconds(t0)} s`);
}

/** Changes whenever the seed or the snapshot SQL changes, so a folder of other data is never reused. */
function seedKey(): string {
  const hash = createHash("sha256");
  for (const f of ["bench/lib/seed-catalog.ts", "src/services/evidence/snapshot-sql.ts", "src/services/evidence/snapshots.ts"]) {
    hash.update(f).update(readFileSync(join(root, f)));
  }
  return hash.digest("hex").slice(0, 12);
}

const seconds = (t0: number) => Math.round((performance.now() - t0) / 1000);
