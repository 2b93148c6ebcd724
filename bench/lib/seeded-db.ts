import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ManualClock } from "../../src/lib/clock.js";
import { recomputeSnapshots } from "../../src/services/snapshots/index.js";
import { openBenchDb, type BenchDb } from "./bench-db.js";
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
 * On PostgreSQL (BENCH_DATABASE_URL) or when the caller fixes `now` (benchmarks on the system
 * clock), the catalog is seeded into a new database. Otherwise, on PGlite, seeding 100,000
 * listings x 168 hours takes well over ten minutes in WebAssembly, so the seeded data folder is
 * kept in .bench-cache, keyed by the listing count and the code that shapes the data (the seed
 * and the snapshot SQL), and each run works on a copy of it: every run starts from the same
 * bytes and none sees another's writes. Opening the copy applies any migration newer than the
 * folder, as on a service's own data folder after an upgrade.
 */
export async function openSeededDb(o: { listings: number; now?: Date; poolSize?: number }): Promise<SeededDb> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl || o.now) {
    const now = o.now ?? new Date();
    const db = await openBenchDb(serverUrl, { poolSize: o.poolSize });
    const t0 = performance.now();
    await seed(db, o.listings, now);
    return { db, now, origin: `seeded in ${seconds(t0)} s` };
  }
  const cached = join(CACHE, `pglite-${o.listings}-${seedKey()}`);
  const t0 = performance.now();
  if (!existsSync(join(cached, "seed.json"))) await buildCache(cached, o.listings);
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

async function seed(db: BenchDb, listings: number, now: Date): Promise<void> {
  await seedCatalog(db.db, { listings, historyHours: 168, now });
  await recomputeSnapshots({ db, clock: new ManualClock(now) });
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
  for (const f of ["bench/lib/seed-catalog.ts", "src/services/snapshots/evidence-sql.ts", "src/services/snapshots/recompute-snapshots.ts"]) {
    hash.update(f).update(readFileSync(join(root, f)));
  }
  return hash.digest("hex").slice(0, 12);
}

const seconds = (t0: number) => Math.round((performance.now() - t0) / 1000);
