import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { FAVICON_PATH } from "../../src/http/pages/favicon.js";
import { seedListing } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/**
 * The provider page's incident timeline (issue 35 item 9): its endpoints' delist flag changes of
 * the last 7 UTC days, from the flag records the delist recorder writes; and every page's favicon.
 */
let ctx: TestContext;
let app: App;
const ids: Record<"dead" | "ghost" | "steady" | "other", number> = {} as never;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(at("2026-11-20T12:00:00.000Z"));
  ids.dead = await seedListing(ctx, { url: "https://wx.example/v1/current", service: "Skycast", provider: "0xsky" });
  ids.ghost = await seedListing(ctx, { url: "https://wx.example/v1/alerts", service: "Skycast", provider: "0xsky" });
  ids.steady = await seedListing(ctx, { url: "https://wx.example/v1/forecast", service: "Skycast", provider: "0xsky" });
  ids.other = await seedListing(ctx, { url: "https://news.example/api", service: "Newsy", provider: "0xnews" });
  const flag = (listing_id: number, day: string, reasons: string[], recorded: string) => ({ listing_id, day, reasons, recorded_at: at(`${day}T${recorded}Z`) });
  await ctx.db.db
    .insertInto("flag_history")
    .values([
      flag(ids.dead, "2026-11-10", ["dead"], "01:00:00"), // before the window: not shown
      flag(ids.dead, "2026-11-16", ["dead"], "08:10:00"),
      flag(ids.dead, "2026-11-17", ["dead", "mostly_dead"], "00:00:00"),
      flag(ids.ghost, "2026-11-20", ["ghost_listing"], "11:57:00"),
      flag(ids.other, "2026-11-19", ["dead"], "05:00:00"), // another provider's
    ])
    .execute();
  app = createApp({ ctx, routes: productRoutes });
});
afterAll(() => ctx?.close());

describe("the provider page's incident timeline", () => {
  it("lists its endpoints' flag changes of the last 7 days, newest first, with their moments and reasons", async () => {
    const res = await app.request("/providers/0xsky");
    expect(res.status).toBe(200);
    const text = await res.text();
    const section = /<section id="incidents">[\s\S]*?<\/section>/.exec(text)![0];
    expect(section).toContain("<h2>Incidents, last 7 days</h2>");
    expect(section).toContain("changing since 2026-11-14 (UTC)");
    const rows = [
      ...section.matchAll(
        /<tr class="(\w+)" data-listing="(\d+)"><td>([\s\S]*?)<\/td><td><a class="url" href="([^"]+)">([^<]+)<\/a><\/td><td>([\s\S]*?)<\/td><\/tr>/g,
      ),
    ];
    expect(rows.map((r) => [r[1], Number(r[2]), r[4], r[5]])).toEqual([
      ["flagged", ids.ghost, `/endpoints/${ids.ghost}`, "POST https://wx.example/v1/alerts"],
      ["cleared", ids.dead, `/endpoints/${ids.dead}`, "POST https://wx.example/v1/current"],
      ["changed", ids.dead, `/endpoints/${ids.dead}`, "POST https://wx.example/v1/current"],
      ["flagged", ids.dead, `/endpoints/${ids.dead}`, "POST https://wx.example/v1/current"],
    ]);
    // A flag's start at the moment first recorded, in words; the others by UTC day.
    expect(rows[0]![3]).toMatch(
      /^<time class="rel" datetime="2026-11-20T11:57:00.000Z"[^>]*>3 min ago<span class="exact"> \(2026-11-20 11:57:00 UTC\)<\/span><\/time>$/,
    );
    expect(rows[0]![6]).toBe("<strong>flagged</strong>: <code>ghost_listing</code>");
    expect(rows[1]![3]).toBe('<time datetime="2026-11-18">2026-11-18</time> (UTC day)');
    expect(rows[1]![6]).toBe("<strong>no longer flagged</strong> (was <code>dead</code> <code>mostly_dead</code>)");
    expect(rows[2]![6]).toBe("<strong>reasons changed</strong>: gained <code>mostly_dead</code>");
    expect(rows[3]![3]).toContain('datetime="2026-11-16T08:10:00.000Z"');
    expect(section).not.toContain("news.example");
  });

  it("says so when none of its endpoints' flags changed in the week", async () => {
    const text = await (await app.request("/providers/0xnews")).text();
    expect(text).toContain("flagged"); // its own change is there
    await ctx.db.db.deleteFrom("flag_history").where("listing_id", "=", ids.other).execute();
    const quiet = await (await app.request("/providers/0xnews")).text();
    expect(quiet).toContain('<p id="no-incidents">No endpoint of this provider was flagged or cleared in the last 7 days.</p>');
  });
});

describe("the favicon", () => {
  it("is linked from every page and served as SVG by the app; /favicon.ico leads to it", async () => {
    for (const path of ["/", "/endpoints", "/providers/0xsky", "/spec", "/endpoints/999999"]) {
      expect(await (await app.request(path)).text(), path).toContain(`<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`);
    }
    const icon = await app.request(FAVICON_PATH);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>$/);
    const ico = await app.request("/favicon.ico");
    expect([ico.status, ico.headers.get("location")]).toEqual([301, FAVICON_PATH]);
  });
});
