import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { createAdminApp } from "../../src/http/operations.js";
import { registerStateGauges } from "../../src/http/state-gauges.js";
import { seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { createDbOutage, type DbOutage } from "../helpers/db-outage.js";
import { body } from "../helpers/http.js";

let ctx: TestContext | undefined;
let outage: DbOutage | undefined;
afterEach(async () => {
  await ctx?.close();
  await outage?.close();
  ctx = outage = undefined;
});

const HOUR = 3_600_000;
const ago = (c: TestContext, ms: number) => new Date(c.clock.now().getTime() - ms);

/** A context started an hour ago (past the start grace), whose facilitator answers. */
async function started(env: Record<string, string> = {}, opts: Parameters<typeof createTestContext>[1] = {}): Promise<TestContext> {
  const c = await createTestContext(env, opts);
  c.readiness.markMigrated(ago(c, HOUR));
  c.readiness.facilitator = async () => ({ kinds: [] });
  return c;
}

/** A finished poll of a catalog source (or of an origin's manifest), as the ingester records it. */
async function seedPoll(
  c: TestContext,
  finishedAt: Date,
  status: "ok" | "error" = "ok",
  url = "http://catalog.test/discovery/resources",
  kind: "bazaar" | "manifest" = "bazaar",
) {
  await c.db.db
    .insertInto("catalog_sources")
    .values({ id: url, url, kind, last_poll_finished_at: finishedAt, last_status: status })
    .onConflict((oc) => oc.column("id").doUpdateSet({ last_poll_finished_at: finishedAt, last_status: status }))
    .execute();
  await c.db.db
    .insertInto("catalog_polls")
    .values({
      source_id: url,
      source_url: url,
      started_at: new Date(finishedAt.getTime() - 1000),
      finished_at: finishedAt,
      complete: status === "ok",
      error: status === "ok" ? null : "HTTP 500",
    })
    .execute();
}

const readyz = async (c: TestContext) => {
  const res = await createApp({ ctx: c, routes: [] }).request("/readyz");
  return { status: res.status, body: await body(res) };
};

describe("/readyz", () => {
  it("is 503 on an empty database with a reason per check, and 200 once a verdict, a complete poll and listings exist", async () => {
    ctx = await started();
    const empty = await readyz(ctx);
    expect(empty.status).toBe(503);
    expect(empty.body.status).toBe("not_ready");
    expect(empty.body.checks.database).toEqual({ ok: true, reason: "select 1 answered" });
    expect(empty.body.checks.verdicts).toEqual({ ok: false, reason: "no verdict recompute has finished yet" });
    expect(empty.body.checks.catalog.reason).toBe("no complete catalog poll has finished yet; the catalog has no active listings");
    expect(empty.body.checks.facilitator.ok).toBe(true);

    await seedListing(ctx, { url: "https://api.example.com/a" });
    await seedPoll(ctx, ago(ctx, 60_000));
    await ctx.db.generation.bump(ctx.db.db, ago(ctx, 20_000));
    const ready = await readyz(ctx);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.verdicts).toEqual({ ok: true, reason: "newest verdict recompute 20 s ago (bound 300 s)", age_seconds: 20 });
    expect(ready.body.checks.catalog).toMatchObject({ ok: true, age_seconds: 60 });
    // Liveness does not look at data.
    expect((await createApp({ ctx, routes: [] }).request("/healthz")).status).toBe(200);
  });

  it("fails on a verdict or poll older than its bound, except in the start grace, and names a failing source by origin", async () => {
    ctx = await started({ READY_VERDICT_MAX_AGE_SECONDS: "120", READY_CATALOG_MAX_AGE_SECONDS: "600" });
    await seedListing(ctx, { url: "https://api.example.com/a" });
    await seedPoll(ctx, ago(ctx, 700_000));
    await ctx.db.generation.bump(ctx.db.db, ago(ctx, 121_000));
    const stale = await readyz(ctx);
    expect(stale.status).toBe(503);
    expect(stale.body.checks.verdicts).toEqual({ ok: false, reason: "newest verdict recompute 121 s ago, over the 120 s bound", age_seconds: 121 });
    expect(stale.body.checks.catalog.reason).toBe("newest complete catalog poll 700 s ago, over the 600 s bound");

    ctx.readiness.markMigrated(ago(ctx, 60_000)); // restarted a minute ago on that old data
    expect((await readyz(ctx)).status).toBe(200);

    ctx.readiness.markMigrated(ago(ctx, HOUR));
    await seedPoll(ctx, ago(ctx, 10_000));
    await ctx.db.generation.bump(ctx.db.db, ago(ctx, 5_000));
    await seedPoll(ctx, ago(ctx, 5_000), "error", "https://user:key@bazaar.example/list?token=t");
    const failing = await readyz(ctx);
    expect(failing.status).toBe(503);
    expect(failing.body.checks.catalog.reason).toBe("failing catalog sources: https://bazaar.example");
  });

  it("fails with a reason when the database stops answering under the app (PostgreSQL: its connections cut; PGlite: its driver failing), and recovers with it", async () => {
    outage = await createDbOutage();
    ctx = await started({}, { db: outage.db });
    await seedListing(ctx, { url: "https://api.example.com/a" });
    await seedPoll(ctx, ago(ctx, 10_000));
    await ctx.db.generation.bump(ctx.db.db, ago(ctx, 5_000));
    expect((await readyz(ctx)).status).toBe(200);

    outage.down();
    const down = await readyz(ctx);
    expect(down.status).toBe(503);
    expect(down.body.checks.database.ok).toBe(false);
    expect(down.body.checks.database.reason).toMatch(/^the database did not answer: /);
    expect(down.body.checks.verdicts).toEqual({ ok: false, reason: "unknown: the database did not answer" });

    outage.restore();
    expect((await readyz(ctx)).status).toBe(200);
  });

  it("fails when the facilitator does not answer /supported, asking it again only after a short cache", async () => {
    ctx = await started();
    let asked = 0;
    ctx.readiness.facilitator = async () => {
      asked++;
      throw new Error("connect ECONNREFUSED 10.0.0.9:443");
    };
    const first = await readyz(ctx);
    expect(first.body.checks.facilitator).toEqual({ ok: false, reason: "the facilitator did not answer /supported: connect ECONNREFUSED 10.0.0.9:443" });
    const app = createApp({ ctx, routes: [] });
    await app.request("/readyz");
    await app.request("/readyz");
    expect(asked).toBe(2); // one per app: the second app's two asks share its cached answer
  });
});

describe("/metrics", () => {
  it("answers only the bearer METRICS_TOKEN when one is set", async () => {
    ctx = await started({ METRICS_TOKEN: "s3cret-token-0123456789" });
    const app = createApp({ ctx, routes: [] });
    expect((await app.request("/metrics")).status).toBe(401);
    expect((await app.request("/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await app.request("/metrics", { headers: { authorization: "Bearer s3cret-token-0123456789x" } })).status).toBe(401);
    const ok = await app.request("/metrics", { headers: { authorization: "Bearer s3cret-token-0123456789" } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("lookout_http_requests_total");
  });

  it("leaves the API port when an admin listener is configured, which serves it with /healthz and /readyz", async () => {
    ctx = await started({ ADMIN_PORT: "9464" });
    const api = createApp({ ctx, routes: [] });
    expect((await api.request("/metrics")).status).toBe(404);
    expect((await api.request("/healthz")).status).toBe(200);
    const admin = createAdminApp(ctx);
    expect((await admin.request("/metrics")).status).toBe(200);
    expect((await admin.request("/healthz")).status).toBe(200);
    expect((await admin.request("/readyz")).status).toBe(503);
    expect((await admin.request("/api/v1/credits")).status).toBe(404);
  });

  it("reads the verdict and catalog ages and the unfinished payments on scrape", async () => {
    ctx = await started();
    registerStateGauges(ctx);
    const scrape = async () => ctx!.metrics.metrics();
    expect(await scrape()).toMatch(/^lookout_verdict_age_seconds nan$/im);
    await seedPoll(ctx, ago(ctx, 90_000));
    await ctx.db.generation.bump(ctx.db.db, ago(ctx, 30_000));
    await new Promise((r) => setTimeout(r, 1_100)); // one read per second of scrapes
    const text = await scrape();
    expect(text).toMatch(/^lookout_verdict_age_seconds 30$/m);
    expect(text).toMatch(/^lookout_catalog_age_seconds 90$/m);
    expect(text).toMatch(/^lookout_payments_unfinished 0$/m);
  });

  it("counts the free trial's refusals by quota scope", async () => {
    ctx = await started({ TRUST_PROXY: "true" });
    await seedListing(ctx, { url: "https://weather.example/v1/forecast" });
    const app = createApp({ ctx, routes: productRoutes });
    const trial = () =>
      app.request("/api/v1/preflight-trial", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.1" },
        body: JSON.stringify({ url: "https://weather.example/v1/forecast" }),
      });
    const refusals: string[] = [];
    for (let i = 0; i < 60 && refusals.length < 2; i++) {
      const res = await trial();
      if (res.status === 429) refusals.push((await body(res)).scope);
    }
    expect(refusals).toHaveLength(2);
    const text = await ctx.metrics.metrics();
    expect(text).toContain(`lookout_quota_refusals_total{route="preflight-trial",scope="${refusals[0]}"} 2`);
  });
});
