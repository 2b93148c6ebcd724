import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "../../src/db/migrate.js";
import { rollupProbes } from "../../src/services/evidence/rollup.js";
import type { TestDb } from "../helpers/db.js";
import { migratedBefore } from "../helpers/migrate-before.js";
import { insertListings } from "../probes/helpers.js";

// Migration 0025 (decision 0037): refusals stored as errors before it become `blocked` and leave
// the hourly buckets their raw rows cover; other probes and buckets are untouched.
let h: TestDb | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterAll(async () => {
  await h?.close();
  await cleanup?.();
});

const H1 = new Date("2026-11-20T10:00:00Z");
const H2 = new Date("2026-11-20T11:00:00Z");
const at = (hour: Date, min: number) => new Date(hour.getTime() + min * 60_000);

describe("migration 0025", () => {
  it("reclassifies stored ssrf_blocked errors and takes them out of their hourly buckets", async () => {
    ({ h, cleanup } = await migratedBefore("0025"));
    const bundled = (await readdir(fileURLToPath(MIGRATIONS_DIR))).filter((f) => f.endsWith(".sql")).sort();

    const [id] = await insertListings(h.db, [{ url: "http://127.0.0.1:8080/weather" }]);
    const probe = (probedAt: Date, outcome: "healthy" | "error", status: number | null, kind: string | null) => ({
      listing_id: id!,
      probed_at: probedAt,
      outcome,
      status_code: status,
      error_kind: kind,
      latency_ms: status === null ? null : 40,
    });
    await h.db
      .insertInto("probes")
      .values([
        probe(at(H1, 10), "error", null, "ssrf_blocked"),
        probe(at(H1, 20), "error", null, "ssrf_blocked"),
        probe(at(H2, 10), "error", null, "ssrf_blocked"),
        probe(at(H2, 20), "healthy", 402, null),
        probe(at(H2, 30), "error", null, "timeout"),
        probe(at(H2, 40), "error", 500, null),
      ])
      .execute();
    await rollupProbes(h.db, H1);
    const before = await h.db.selectFrom("probe_hourly").select(["bucket", "probes", "errors"]).orderBy("bucket").execute();
    expect(before).toEqual([
      { bucket: H1, probes: 2, errors: 2 },
      { bucket: H2, probes: 4, errors: 3 },
    ]);

    expect((await migrate(h.db)).applied.map((n) => n.slice(0, 4))).toEqual(bundled.filter((f) => f >= "0025").map((f) => f.slice(0, 4)));

    const outcomes = await h.db.selectFrom("probes").select(["outcome", "error_kind"]).orderBy("probed_at").execute();
    expect(outcomes.map((p) => p.outcome)).toEqual(["blocked", "blocked", "blocked", "healthy", "error", "error"]);
    // H1 held refusals only: gone. H2 keeps its healthy probe and two real errors, one a network error.
    const after = await h.db.selectFrom("probe_hourly").select(["bucket", "probes", "healthy", "errors", "status_counts"]).orderBy("bucket").execute();
    expect(after).toEqual([{ bucket: H2, probes: 3, healthy: 1, errors: 2, status_counts: { "402": 1, "500": 1, network_error: 1 } }]);
    // The recomputed bucket agrees with the migration's arithmetic.
    await rollupProbes(h.db, H1);
    expect(await h.db.selectFrom("probe_hourly").select(["bucket", "probes", "healthy", "errors", "status_counts"]).execute()).toEqual(after);
  });
});
