import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLookout } from "../../src/cli/commands/run.js";
import { runDatasetCommand } from "../../src/cli/commands/dataset.js";
import { createApp } from "../../src/http/app.js";
import { buildDataset } from "../../src/services/dataset/build-dataset.js";
import { COLUMNS } from "../../src/services/dataset/columns.js";
import { buildIfDue } from "../../src/services/dataset/scheduler.js";
import { DAY, HOUR } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { testIo } from "../cli/helpers.js";

let ctx: TestContext;
let dir: string;
let app: ReturnType<typeof createApp>;
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const deps = () => ({
  db: ctx.db.db,
  soleWriter: ctx.db.soleWriter,
  clock: ctx.clock,
  log: ctx.log,
  dataDir: ctx.config.dataDir,
  publicBaseUrl: ctx.config.publicBaseUrl,
  minEvidenceHours: ctx.config.datasetMinEvidenceHours,
});

/** RFC 4180 records (CRLF line ends, quoted fields with doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += ch;
  }
  return rows;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lookout-dataset-"));
  ctx = await createTestContext({ DATA_DIR: dir });
  const a = await seedListing(ctx, {
    url: "https://wx.example/v1/forecast",
    service: 'Skycast, "Weather"',
    provider: "0xsky",
    price: "0.002",
    category: "weather",
  });
  await seedProbes(
    ctx,
    a,
    series(7 * DAY, HOUR, (i) => ({ price: "0.002", latency: 100 + (i % 7) * 10 })),
  );
  const b = await seedListing(ctx, { url: "https://premium.example/alpha", service: "Premium", provider: "0xprem", price: "2500" });
  await seedProbes(ctx, b, series(7 * DAY, HOUR));
  await seedListing(ctx, { url: "https://old.example/gone", service: "Old", active: false });
  await recompute(ctx);
  app = createApp({ ctx, routes: [] });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("buildDataset", () => {
  it("writes per-endpoint aggregates of active listings as CSV and JSON Lines, with sizes and hashes recorded", async () => {
    const build = await buildDataset(deps());
    expect(build).toMatchObject({ period: "2026-11-20", rows: 2, dir: join(dir, "dataset", "2026-11-20") });
    expect(readdirSync(build.dir).sort()).toEqual(["LICENSE", "README.md", "endpoints.csv", "endpoints.jsonl"]);
    expect(readdirSync(join(dir, "dataset"))).toEqual(["2026-11-20"]);
    for (const [name, f] of Object.entries(build.files)) {
      expect(f.bytes, name).toBe(statSync(join(build.dir, name)).size);
      expect(f.sha256, name).toBe(sha256(join(build.dir, name)));
    }

    const csv = parseCsv(readFileSync(join(build.dir, "endpoints.csv"), "utf8"));
    expect(csv[0]).toEqual(COLUMNS.map((c) => c.name));
    expect(csv).toHaveLength(3);
    const rows = csv.slice(1).map((r) => Object.fromEntries(r.map((v, i) => [csv[0]![i], v])));
    const wx = rows.find((r) => r.url === "https://wx.example/v1/forecast")!;
    expect(wx).toMatchObject({
      service: 'Skycast, "Weather"',
      price_usdc: "0.002",
      probes_7d: "167",
      uptime_7d_pct: "100",
      warnings: "high_concentration",
      wildcard_402_detected: "false",
    });
    expect(Number(wx.p99_latency_7d_ms)).toBeGreaterThan(150);
    expect(rows.find((r) => r.url === "https://premium.example/alpha")!.blacklist_reasons).toBe("decoy_price_extreme");

    const jsonl = readFileSync(join(build.dir, "endpoints.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(jsonl).toHaveLength(2);
    expect(Object.keys(jsonl[0])).toEqual(COLUMNS.map((c) => c.name));
    expect(jsonl.find((r) => r.url === "https://premium.example/alpha")).toMatchObject({
      price_usdc: "2500",
      warnings: expect.arrayContaining(["decoy_price_extreme"]),
      blacklist_reasons: ["decoy_price_extreme"],
      uptime_7d_pct: 100,
    });
    // Aggregates only: no probe-by-probe series anywhere.
    expect(COLUMNS.map((c) => c.name).some((n) => /hourly|series|probed_at/.test(n))).toBe(false);

    const row = await ctx.db.db.selectFrom("datasets").selectAll().where("id", "=", build.id).executeTakeFirstOrThrow();
    expect(row.files["endpoints.csv"]).toMatchObject({ bytes: build.files["endpoints.csv"].bytes, sha256: build.files["endpoints.csv"].sha256, rows: 2 });
  });

  it("ships a README documenting every column and the CC-BY-4.0 licence with its canonical address and an attribution line", async () => {
    const build = await buildDataset(deps());
    const readme = readFileSync(join(build.dir, "README.md"), "utf8");
    for (const c of COLUMNS) expect(readme).toContain(`| ${c.name} | ${c.type} |`);
    expect(readme).toContain("https://creativecommons.org/licenses/by/4.0/");
    const license = readFileSync(join(build.dir, "LICENSE"), "utf8");
    expect(license).toContain("Creative Commons Attribution 4.0 International");
    expect(license).toContain("CC-BY-4.0");
    expect(license).toContain("Canonical address: https://creativecommons.org/licenses/by/4.0/");
    expect(license).toContain('"x402 Lookout endpoint dataset, 2026-11-20" by x402 Lookout (http://lookout.test/dataset), licensed under CC-BY-4.0');
  });

  it("replaces the build of the same day and keeps one row per period", async () => {
    await buildDataset(deps());
    const rows = await ctx.db.db.selectFrom("datasets").select("period").execute();
    expect(rows.map((r) => r.period)).toEqual(["2026-11-20"]);
    expect(readdirSync(join(dir, "dataset"))).toEqual(["2026-11-20"]);
  });
});

describe("the weekly schedule", () => {
  it("builds only when the newest build is a week old", async () => {
    ctx.clock.advance(6 * DAY);
    expect(await buildIfDue(deps())).toBeUndefined();
    ctx.clock.advance(DAY);
    const built = await buildIfDue(deps());
    expect(built?.period).toBe("2026-11-27");
    expect(await buildIfDue(deps())).toBeUndefined();
  });
});

describe("/dataset", () => {
  it("lists every build with download links, sizes and dates, and serves the files", async () => {
    const page = await app.request("/dataset");
    expect(page.status).toBe(200);
    const html = await page.text();
    const builds = await ctx.db.db.selectFrom("datasets").selectAll().orderBy("built_at", "desc").execute();
    expect(builds).toHaveLength(2);
    for (const b of builds) {
      expect(html).toContain(b.period);
      expect(html).toContain(`href="http://lookout.test/dataset/${b.id}/endpoints.csv"`);
      expect(html).toContain(`(${(b.files["endpoints.csv"] as { bytes: number }).bytes} bytes)`);
    }
    expect(html).toContain("CC-BY-4.0");

    const index: any = await (await app.request("/dataset/index.json")).json();
    expect(index.builds[0]).toMatchObject({
      period: "2026-11-27",
      files: expect.arrayContaining([expect.objectContaining({ name: "endpoints.jsonl", rows: 2 })]),
    });

    const newest = builds[0]!;
    const csv = await app.request(`/dataset/${newest.id}/endpoints.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="x402-lookout-2026-11-27-endpoints.csv"');
    const text = await csv.text();
    expect(createHash("sha256").update(text).digest("hex")).toBe((newest.files["endpoints.csv"] as { sha256: string }).sha256);
    expect((await app.request(`/dataset/${newest.id}/LICENSE`)).status).toBe(200);
  });

  it("serves known file names of known builds only", async () => {
    const id = (await ctx.db.db.selectFrom("datasets").select("id").executeTakeFirstOrThrow()).id;
    for (const path of [
      `/dataset/${id}/..%2F..%2Fetc%2Fpasswd`,
      `/dataset/${id}/%2e%2e`,
      `/dataset/${id}/other.csv`,
      "/dataset/999/endpoints.csv",
      "/dataset/1e3/endpoints.csv",
      `/dataset/..%2F${id}/LICENSE`,
    ]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });
});

describe("npm run lookout -- dataset build", () => {
  it("builds on demand and prints the files", async () => {
    const io = testIo(ctx.db, ctx.clock);
    expect(await runDatasetCommand(["build"], io, ctx.config)).toBe(0);
    expect(io.stdout.text).toMatch(/^dataset 2026-11-27 \(id \d+\): 2 endpoint\(s\) in /);
    expect(io.stdout.text).toMatch(/endpoints\.csv {2}\d+ bytes {2}sha256 [0-9a-f]{64}/);
  });

  it("is a lookout subcommand with a usage error for anything else", async () => {
    const io = testIo(ctx.db, ctx.clock);
    expect(await runLookout(["dataset", "publish"], io)).toBe(2);
    expect(io.stderr.text).toContain("unknown dataset arguments 'publish'");
    expect(io.stderr.text).toContain("dataset build");
  });
});
