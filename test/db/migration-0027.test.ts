import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "../../src/db/migrate.js";
import { rollupProbes } from "../../src/services/evidence/rollup.js";
import type { TestDb } from "../helpers/db.js";
import { migratedBefore } from "../helpers/migrate-before.js";
import { insertListings } from "../probes/helpers.js";

// Migration 0027 (decision 0046): 400 and 422 answers stored as errors before it become
// `needs_input` and leave the hourly buckets their raw rows cover; other probes are untouched.
let h: TestDb | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterAll(async () => {
  await h?.close();
  await cleanup?.();
});

const H1 = new Date("2026-11-20T10:00:00Z");
const H2 = new Date("2026-11-20T11:00:00Z");
const at = (hour: Date, min: number) => new Date(hour.getTime() + min * 60_000);
const BUCKET = ["bucket", "probes", "healthy", "errors", "latency_count", "latency_sum_ms", "latency_hist", "status_counts"] as const;

describe("migration 0027", () => {
  it("reclassifies stored 400 and 422 errors and takes them out of their hourly buckets", async () => {
    ({ h, cleanup } = await migratedBefore("0027"));
    const bundled = (await readdir(fileURLToPath(MIGRATIONS_DIR))).filter((f) => f.endsWith(".sql")).sort();

    const [id] = await insertListings(h.db, [{ url: "http://127.0.0.1:8080/quote" }]);
    const probe = (probedAt: Date, outcome: "healthy" | "error", status: number | null, latency: number | null) => ({
      listing_id: id!,
      probed_at: probedAt,
      outcome,
      status_code: status,
      error_kind: status === null ? "timeout" : null,
      latency_ms: latency,
    });
    await h.db
      .insertInto("probes")
      .values([
        probe(at(H1, 10), "error", 422, 30),
        probe(at(H1, 20), "error", 400, 35),
        probe(at(H2, 10), "error", 422, 30),
        probe(at(H2, 20), "healthy", 402, 40),
        probe(at(H2, 30), "error", 500, 2_000),
        probe(at(H2, 40), "error", null, null),
        probe(at(H2, 50), "error", 404, 30),
      ])
      .execute();
    await rollupProbes(h.db, H1);
    const before = await h.db.selectFrom("probe_hourly").select(["bucket", "probes", "errors", "latency_count"]).orderBy("bucket").execute();
    expect(before).toEqual([
      { bucket: H1, probes: 2, errors: 2, latency_count: 2 },
      { bucket: H2, probes: 5, errors: 4, latency_count: 4 },
    ]);

    expect((await migrate(h.db)).applied.map((n) => n.slice(0, 4))).toEqual(bundled.filter((f) => f >= "0027").map((f) => f.slice(0, 4)));

    const outcomes = await h.db.selectFrom("probes").select("outcome").orderBy("probed_at").execute();
    expect(outcomes.map((p) => p.outcome)).toEqual(["needs_input", "needs_input", "needs_input", "healthy", "error", "error", "error"]);
    // H1 held 400/422 answers only: gone. H2 keeps its healthy probe and three real errors (a 404 among them).
    const after = await h.db.selectFrom("probe_hourly").select(BUCKET).orderBy("bucket").execute();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ bucket: H2, probes: 4, healthy: 1, errors: 3, latency_count: 3, latency_sum_ms: 2_070 });
    expect(after[0]!.status_counts).toEqual({ "402": 1, "404": 1, "500": 1, network_error: 1 });
    // The arithmetic agrees with a recomputation from the reclassified raw rows, histogram included.
    await rollupProbes(h.db, H1);
    expect(await h.db.selectFrom("probe_hourly").select(BUCKET).execute()).toEqual(after);
  });
});
