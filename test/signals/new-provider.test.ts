import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recompute } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startCatalogServer, type CatalogServer } from "../catalog/helpers/catalog-server.js";
import { ingestOnce } from "../catalog/helpers/ingest.js";
import { v2Item } from "../catalog/helpers/items.js";

/**
 * Issue 35 item 8: new_provider is judged by the provider's own first sighting anywhere, not by
 * when the catalog listing it was connected. Real catalog polls on the injected clock.
 */
const DAY = 86_400_000;
const PAYEE_OLD = "0x2222222222222222222222222222222222222222";
let ctx: TestContext;
const servers: CatalogServer[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx?.close();
});

const connect = async (items: unknown[]) => {
  const s = await startCatalogServer(items);
  servers.push(s);
  await ingestOnce(ctx, [s.url]);
  await recompute(ctx);
};
const warnings = async (url: string) => (await ctx.services.reports.preflight(url)).warnings;

describe("new_provider on a newly connected catalog", () => {
  it("fires only for a provider nothing has seen before: catalog-reported calls and an earlier payee sighting are a track record", async () => {
    // Two days ago another catalog listed this payee under another name.
    await connect([v2Item({ url: "https://old-name.np.test/a", serviceName: "Old Name", payTo: PAYEE_OLD, quality: { l30DaysTotalCalls: 0 } })]);
    ctx.clock.advance(2 * DAY);

    await connect([
      // Calls in the 30 days before our first sight, but no date for the last one.
      v2Item({ url: "https://busy.np.test/a", serviceName: "Busy", payTo: "0x3333333333333333333333333333333333333333", quality: { l30DaysTotalCalls: 40 } }),
      // The same payee as two days ago, renamed: not new.
      v2Item({ url: "https://new-name.np.test/a", serviceName: "New Name", payTo: PAYEE_OLD, quality: { l30DaysTotalCalls: 0 } }),
      // Nobody has ever seen or paid it.
      v2Item({ url: "https://fresh.np.test/a", serviceName: "Fresh", payTo: "0x4444444444444444444444444444444444444444", quality: { l30DaysTotalCalls: 0 } }),
      // No usage reported at all: also new.
      v2Item({ url: "https://quiet.np.test/a", serviceName: "Quiet", payTo: "0x5555555555555555555555555555555555555555" }),
    ]);

    expect(await warnings("https://busy.np.test/a")).not.toContain("new_provider");
    expect(await warnings("https://new-name.np.test/a")).not.toContain("new_provider");
    expect(await warnings("https://fresh.np.test/a")).toContain("new_provider");
    expect(await warnings("https://quiet.np.test/a")).toContain("new_provider");
    const fresh = await ctx.services.reports.preflight("https://fresh.np.test/a");
    expect(fresh.evidence.service_age_hours).toBe(0);

    // A day after its first sighting the fresh provider is not new any more.
    ctx.clock.advance(DAY);
    await recompute(ctx);
    expect(await warnings("https://fresh.np.test/a")).not.toContain("new_provider");
  });
});
