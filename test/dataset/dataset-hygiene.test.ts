import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { csvField } from "../../src/services/dataset/file-sink.js";
import { DAY, HOUR } from "../../src/services/signals/constants.js";
import { datasetTask } from "../../src/workers/dataset.js";
import { Readiness } from "../../src/context.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

let ctx: TestContext | undefined;
let dir: string | undefined;
afterEach(async () => {
  await ctx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  ctx = undefined;
  dir = undefined;
});

async function context(env: Record<string, string> = {}): Promise<TestContext> {
  dir = mkdtempSync(join(tmpdir(), "lookout-dataset-hygiene-"));
  ctx = await createTestContext({ DATA_DIR: dir, ...env });
  return ctx;
}
const builds = async (c: TestContext) => (await c.db.db.selectFrom("datasets").select("id").execute()).length;

describe("CSV formula injection", () => {
  it("prefixes text cells a spreadsheet would evaluate with ', keeps numbers and booleans", () => {
    for (const evil of ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"]) expect(csvField(evil).replace(/^"/, "")).toMatch(/^'/);
    expect(csvField("=1,2")).toBe(`"'=1,2"`);
    expect(csvField(["-x", "y"])).toBe("'-x;y");
    expect(csvField(-5)).toBe("-5");
    expect(csvField(false)).toBe("false");
    expect(csvField("Skycast")).toBe("Skycast");
  });

  it("neutralises catalog-controlled names in endpoints.csv and keeps them verbatim in JSON Lines", async () => {
    const c = await context();
    const names = ['=HYPERLINK("https://evil.example","click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1,2)", "\tTabbed"];
    for (const [i, name] of names.entries()) {
      const id = await seedListing(c, { url: `https://evil${i}.example/api`, service: name, price: "0.01" });
      await seedProbes(c, id, series(2 * HOUR, 10 * 60_000));
    }
    await recompute(c);
    const build = await c.services.dataset.build();
    const csv = readFileSync(join(build.dir, "endpoints.csv"), "utf8");
    for (const name of names) {
      const cell = `'${name}`;
      expect(csv).toContain(/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
    }
    // No line (record) of the CSV starts a cell with a formula character.
    for (const line of csv.split("\r\n").filter(Boolean)) for (const cell of line.split(",")) expect(cell.replace(/^"/, "")).not.toMatch(/^[=+\-@\t\r]/);
    const jsonl = readFileSync(join(build.dir, "endpoints.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(jsonl.map((r) => r.service).sort()).toEqual([...names].sort());
  });
});

describe("the first build", () => {
  it("waits for DATASET_MIN_EVIDENCE_HOURS of probes (a week by default), never building an empty snapshot", async () => {
    const c = await context();
    expect(c.config.datasetMinEvidenceHours).toBe(168);
    expect(await c.services.dataset.buildIfDue()).toBeUndefined();
    expect(await c.services.dataset.evidence()).toMatchObject({ since: null, hours: 0, nextBuildAt: null });

    const id = await seedListing(c, { url: "https://wx.example/v1", service: "Skycast", price: "0.002" });
    await seedProbes(c, id, series(3 * HOUR, 10 * 60_000));
    await recompute(c);
    const ev = await c.services.dataset.evidence();
    expect(ev).toMatchObject({ hours: 2, probes7d: 18, endpoints: 1, minHours: 168, newestBuildAt: null });
    expect(ev.nextBuildAt!.getTime()).toBe(ev.since!.getTime() + 168 * HOUR);
    expect(await c.services.dataset.buildIfDue()).toBeUndefined();

    c.clock.advance(ev.nextBuildAt!.getTime() - c.clock.now().getTime() - 60_000);
    expect(await c.services.dataset.buildIfDue()).toBeUndefined();
    c.clock.advance(60_000);
    expect((await c.services.dataset.buildIfDue())?.rows).toBe(1);
    const after = await c.services.dataset.evidence();
    expect(after.nextBuildAt!.getTime()).toBe(c.clock.now().getTime() + 7 * DAY);
  });

  it("takes a configured minimum (demo mode: an hour)", async () => {
    const c = await context({ DATASET_MIN_EVIDENCE_HOURS: "2" });
    const id = await seedListing(c, { url: "https://wx.example/v1", service: "Skycast", price: "0.002" });
    await seedProbes(c, id, series(HOUR, 10 * 60_000));
    await recompute(c);
    expect(await c.services.dataset.buildIfDue()).toBeUndefined();
    c.clock.advance(HOUR + 10 * 60_000);
    expect((await c.services.dataset.buildIfDue())?.rows).toBe(1);
  });

  it("is never built by the scheduler task before the process has fully started", async () => {
    const c = await context({ DATASET_MIN_EVIDENCE_HOURS: "1" });
    const id = await seedListing(c, { url: "https://wx.example/v1", service: "Skycast", price: "0.002" });
    await seedProbes(c, id, series(3 * HOUR, 10 * 60_000));
    await recompute(c);
    const readiness = new Readiness();
    readiness.markMigrated();
    readiness.expectRoles(["api", "prober"]);
    const task = datasetTask({ services: c.services, readiness });
    readiness.markStarted("api");
    await task.tick(new AbortController().signal);
    expect(await builds(c)).toBe(0);
    readiness.markStarted("prober");
    await task.tick(new AbortController().signal);
    expect(await builds(c)).toBe(1);
  });
});

describe("/dataset", () => {
  it("says how much evidence it holds and when the first build comes", async () => {
    const c = await context();
    const app = createApp({ ctx: c, routes: [] });
    expect(await (await app.request("/dataset")).text()).toContain("Evidence held: none yet");
    const id = await seedListing(c, { url: "https://wx.example/v1", service: "Skycast", price: "0.002" });
    await seedProbes(c, id, series(3 * HOUR, 10 * 60_000));
    await recompute(c);
    const page = await (await app.request("/dataset")).text();
    const ev = await c.services.dataset.evidence();
    expect(page).toContain('Evidence held: <span id="evidence-hours">2</span> hour(s) of probes');
    expect(page).toContain("18 probe(s) of 1 endpoint(s) in the last 7 days");
    // In relative words, the exact moment in the <time> (issue 35 item 9).
    expect(page).toContain(
      `The first build waits for 168 hour(s) of evidence: at about <span id="next-build"><time class="rel" datetime="${ev.nextBuildAt!.toISOString()}"`,
    );
    expect(page).toMatch(/<span id="next-build"><time [^>]*>in 6 d</);
    const index: any = await (await app.request("/dataset/index.json")).json();
    expect(index.evidence).toMatchObject({
      hours: 2,
      probes_7d: 18,
      endpoints: 1,
      min_hours_before_first_build: 168,
      next_build_at: ev.nextBuildAt!.toISOString(),
    });
  });
});
