import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLookout } from "../../src/cli/commands/run.js";
import { histogramOf, mergeHistograms } from "../../src/services/evidence/latency-histogram.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { seedListings, tempDir, testIo } from "./helpers.js";

const A = "https://api.alpha.example.com/quote";
const B = "https://beta.example.org/v1/search?q=1";
const SPECS = [{ url: A }, { url: B, method: "GET" }];

let ctx: TestContext;
let fresh: TestContext | undefined;
const tmp = tempDir();

const ndjson = (objs: unknown[]) => objs.map((o) => (typeof o === "string" ? o : JSON.stringify(o))).join("\n") + "\n";
const probe = (over: Record<string, unknown>) => ({
  url: A,
  method: "POST",
  at: "2026-11-19T10:05:00.000Z",
  status: 402,
  latency_ms: 120,
  price_usdc: "0.01",
  ...over,
});

const GOOD = [
  probe({}),
  probe({ at: "2026-11-19T10:25:00.000Z", status: 503, latency_ms: 900, price_usdc: null }),
  probe({ at: "2026-11-19T10:45:00.000Z", status: undefined, network_error: "timeout", latency_ms: null, price_usdc: null }),
  probe({
    url: "HTTPS://beta.example.org:443/v1/search?q=1#x",
    method: "get",
    at: "2026-11-19T11:10:00+01:00",
    status: 200,
    latency_ms: 40,
    price_usdc: 0.005,
  }),
  probe({ at: "2026-11-18T23:59:59.999Z", latency_ms: 4000 }),
];

beforeAll(async () => {
  ctx = await createTestContext();
  await seedListings(ctx.db, ctx.clock.now(), SPECS);
});
afterAll(async () => {
  tmp.remove();
  await fresh?.close();
  await ctx?.close();
});

async function probeRows(c: TestContext) {
  return c.db.db
    .selectFrom("probes")
    .innerJoin("listings", "listings.id", "probes.listing_id")
    .select([
      "listings.url",
      "listings.method",
      "probes.probed_at",
      "probes.outcome",
      "probes.status_code",
      "probes.error_kind",
      "probes.latency_ms",
      "probes.price_usdc",
    ])
    .orderBy("probed_at")
    .orderBy("listings.url")
    .execute();
}

describe("probes import", () => {
  it("reports every bad line with its number and imports nothing", async () => {
    const file = tmp.file("bad.ndjson");
    const lines = [
      probe({}),
      "{not json",
      probe({ url: "ftp://x.example.com/" }),
      probe({ status: 402, network_error: "timeout" }),
      probe({ status: undefined }),
      "",
      probe({ at: "yesterday" }),
      probe({ latency_ms: -5 }),
      probe({ price_usdc: "1.2345678" }),
      probe({ url: "https://unknown.example.com/x" }),
      probe({ method: "GET" }),
      probe({ at: "2026-11-21T12:00:00Z" }),
      probe({ status: 99 }),
    ];
    writeFileSync(file, ndjson(lines));
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "import", file], io)).toBe(1);
    const err = io.stderr.text.split("\n").filter((l) => l.startsWith("line "));
    expect(err).toEqual([
      "line 2: not valid JSON",
      "line 3: url: must be an absolute http(s) URL",
      "line 4: needs exactly one of status and network_error",
      "line 5: needs exactly one of status and network_error",
      "line 7: at: must be an ISO 8601 date-time with a time zone",
      expect.stringMatching(/^line 8: latency_ms: /),
      "line 9: price_usdc: must be a non-negative decimal with at most 6 decimals",
      "line 10: unknown listing (POST https://unknown.example.com/x)",
      `line 11: unknown listing (GET ${A})`,
      "line 12: at: lies in the future",
      expect.stringMatching(/^line 13: status: /),
    ]);
    expect(io.stderr.text).toMatch(/11 bad line\(s\) of 13: nothing imported/);
    expect(await probeRows(ctx)).toEqual([]);
    expect(await ctx.db.db.selectFrom("probe_hourly").selectAll().execute()).toEqual([]);
  });

  it("caps the printed list but counts every bad line", async () => {
    const file = tmp.file("many-bad.ndjson");
    writeFileSync(file, ndjson(Array.from({ length: 30 }, () => "nope")));
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "import", file], io)).toBe(1);
    expect(io.stderr.text.split("\n").filter((l) => l.startsWith("line "))).toHaveLength(20);
    expect(io.stderr.text).toMatch(/\.\.\. and 10 more bad lines/);
    expect(io.stderr.text).toMatch(/30 bad line\(s\) of 30/);
  });

  it("with --skip-bad imports the good lines and folds them into the hourly rollups", async () => {
    // An hour the prober already rolled up: the import adds to it.
    const listingA = await ctx.db.db.selectFrom("listings").select("id").where("url", "=", A).executeTakeFirstOrThrow();
    await ctx.db.db
      .insertInto("probe_hourly")
      .values({
        listing_id: listingA.id,
        bucket: "2026-11-19T10:00:00Z",
        probes: 2,
        healthy: 2,
        errors: 0,
        latency_count: 2,
        latency_sum_ms: 300,
        latency_max_ms: 200,
        latency_hist: histogramOf([100, 200]),
        status_counts: { "402": 2 },
        price_usdc_last: "0.02",
        price_usdc_min: "0.02",
        price_usdc_max: "0.02",
      })
      .execute();

    const file = tmp.file("mixed.ndjson");
    writeFileSync(file, ndjson([...GOOD, "garbage"]));
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "import", file, "--skip-bad"], io)).toBe(1);
    expect(io.stdout.text).toBe("imported 5 probe(s) from 6 line(s); 0 already present; 1 bad line(s) skipped\n");
    expect(io.stderr.text).toContain("line 6: not valid JSON");

    const rows = await probeRows(ctx);
    expect(rows.map((r) => [r.method, r.probed_at.toISOString(), r.outcome, r.status_code, r.error_kind, r.latency_ms, r.price_usdc])).toEqual([
      ["POST", "2026-11-18T23:59:59.999Z", "healthy", 402, null, 4000, "0.01"],
      ["POST", "2026-11-19T10:05:00.000Z", "healthy", 402, null, 120, "0.01"],
      ["GET", "2026-11-19T10:10:00.000Z", "healthy", 200, null, 40, "0.005"],
      ["POST", "2026-11-19T10:25:00.000Z", "error", 503, null, 900, null],
      ["POST", "2026-11-19T10:45:00.000Z", "error", null, "timeout", null, null],
    ]);

    const hour = await ctx.db.db
      .selectFrom("probe_hourly")
      .selectAll()
      .where("listing_id", "=", listingA.id)
      .where("bucket", "=", new Date("2026-11-19T10:00:00Z"))
      .executeTakeFirstOrThrow();
    expect(hour).toMatchObject({
      probes: 5,
      healthy: 3,
      errors: 2,
      latency_count: 4,
      latency_sum_ms: 1320,
      latency_max_ms: 900,
      status_counts: { "402": 3, "503": 1, network_error: 1 },
      price_usdc_last: "0.01",
      price_usdc_min: "0.01",
      price_usdc_max: "0.02",
    });
    expect(hour.latency_hist).toEqual(mergeHistograms(histogramOf([100, 200]), histogramOf([120, 900])));
    const buckets = await ctx.db.db.selectFrom("probe_hourly").select(["bucket", "probes"]).orderBy("bucket").orderBy("probes").execute();
    expect(buckets.map((b) => [b.bucket.toISOString(), b.probes])).toEqual([
      ["2026-11-18T23:00:00.000Z", 1],
      ["2026-11-19T10:00:00.000Z", 1],
      ["2026-11-19T10:00:00.000Z", 5],
    ]);
  });

  it("importing the same history again adds nothing", async () => {
    const before = await ctx.db.db.selectFrom("probe_hourly").selectAll().orderBy("bucket").orderBy("listing_id").execute();
    const file = tmp.file("good.ndjson");
    writeFileSync(file, ndjson(GOOD));
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "import", file], io)).toBe(0);
    expect(io.stdout.text).toBe("imported 0 probe(s) from 5 line(s); 5 already present; 0 bad line(s) skipped\n");
    expect(await probeRows(ctx)).toHaveLength(5);
    expect(await ctx.db.db.selectFrom("probe_hourly").selectAll().orderBy("bucket").orderBy("listing_id").execute()).toEqual(before);
  });

  it("draws a progress bar on a terminal only", async () => {
    const file = tmp.file("progress.ndjson");
    writeFileSync(file, ndjson(GOOD));
    const tty = testIo(ctx.db, ctx.clock, true);
    await runLookout(["probes", "import", file], tty);
    expect(tty.stderr.text).toMatch(/\r\[#{30}\] 100% {2}5 lines\n/);
    const pipe = testIo(ctx.db, ctx.clock, false);
    await runLookout(["probes", "import", file], pipe);
    expect(pipe.stderr.text).not.toContain("\r");
  });

  it("says so when the file cannot be read", async () => {
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "import", tmp.file("missing.ndjson")], io)).toBe(1);
    expect(io.stderr.text).toMatch(/^cannot read .*missing\.ndjson: ENOENT/);
  });
});

describe("probes export", () => {
  it("round-trips: export, import into a fresh database, same rows, same export", async () => {
    const out = tmp.file("export.ndjson");
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "export", "--out", out], io)).toBe(0);
    expect(io.stderr.text).toBe(`exported 5 probe(s) to ${out}\n`);
    const exported = readFileSync(out, "utf8");
    expect(
      exported
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))[4],
    ).toEqual({ url: A, method: "POST", at: "2026-11-19T10:45:00.000Z", network_error: "timeout", latency_ms: null, price_usdc: null });

    fresh = await createTestContext();
    await seedListings(fresh.db, fresh.clock.now(), SPECS);
    const imp = testIo(fresh.db, fresh.clock);
    expect(await runLookout(["probes", "import", out], imp)).toBe(0);
    expect(await probeRows(fresh)).toEqual(await probeRows(ctx));

    const again = testIo(fresh.db, fresh.clock);
    expect(await runLookout(["probes", "export"], again)).toBe(0);
    expect(again.stdout.text).toBe(exported);
  });

  it("--since keeps the later probes", async () => {
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["probes", "export", "--since", "2026-11-19T10:10:00Z"], io)).toBe(0);
    expect(
      io.stdout.text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).at),
    ).toEqual(["2026-11-19T10:10:00.000Z", "2026-11-19T10:25:00.000Z", "2026-11-19T10:45:00.000Z"]);
  });
});

describe("usage", () => {
  it.each([
    [["probes"], /probes needs a subcommand/],
    [["probes", "import"], /needs exactly one file/],
    [["probes", "export", "--since", "soon"], /--since 'soon' is not an ISO 8601 date-time/],
    [["probes", "export", "--out"], /--out needs a value/],
    [["listings"], /unknown command 'listings'/],
  ])("%j is a usage error", async (argv, message) => {
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(argv, io)).toBe(2);
    expect(io.stderr.text).toMatch(message);
    expect(io.stderr.text).toContain("usage: npm run lookout");
  });
});
