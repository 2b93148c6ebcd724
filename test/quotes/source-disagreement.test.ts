import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProber, type ProberHandle } from "../../src/workers/prober.js";
import { startCatalogServer, type CatalogServer } from "../catalog/helpers/catalog-server.js";
import { ingestOnce } from "../catalog/helpers/ingest.js";
import { v2Item } from "../catalog/helpers/items.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { startServer, USDC_BASE_SEPOLIA, type TestServer } from "../probes/helpers.js";

/**
 * Two catalog sources that list one endpoint with different payees or prices (issue 27): the
 * disagreement is quote evidence, so the verdict names it even when the endpoint's own quote
 * matches the source whose terms the listing shows.
 */
const PAYEE = "0x" + "a".repeat(40);
const OTHER = "0x" + "b".repeat(40);
let ctx: TestContext;
let merchant: TestServer;
let prober: ProberHandle;
const catalogs: CatalogServer[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  // Every path quotes 0.001 USDC to PAYEE, as the first source lists it.
  merchant = await startServer((req, res) => {
    req.resume();
    const challenge = {
      x402Version: 2,
      resource: { url: `${merchant.url}${req.url}` },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "1000",
          asset: USDC_BASE_SEPOLIA,
          payTo: PAYEE,
          maxTimeoutSeconds: 60,
          extra: { name: "USDC", version: "2" },
        },
      ],
    };
    res.writeHead(402, { "payment-required": Buffer.from(JSON.stringify(challenge)).toString("base64"), "content-type": "application/json" }).end("{}");
  });
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: 600 });
});
afterAll(async () => {
  await prober.stop();
  await Promise.all(catalogs.map((c) => c.close()));
  await merchant.close();
  await ctx.close();
});

const item = (path: string, payTo: string, amount: string) =>
  v2Item({ url: `${merchant.url}${path}`, payTo, amount, network: "eip155:84532", asset: USDC_BASE_SEPOLIA, method: "GET" });

/** Lists each path in two sources (the second one polled last, so the listing shows its terms), then probes all. */
async function listTwice(first: unknown[], second: unknown[]) {
  const a = await startCatalogServer(first);
  const b = await startCatalogServer(second);
  catalogs.push(a, b);
  await ingestOnce(ctx, [a.url]);
  await ingestOnce(ctx, [b.url]);
  ctx.clock.advance(60_000);
  await prober.runNow();
}

const preflight = (path: string) => ctx.services.reports.preflight(`${merchant.url}${path}`);

describe("sources that disagree", () => {
  it("on payee or price show pay_to_changed and price_mismatch; sources that agree show neither", async () => {
    await listTwice(
      [item("/payee", OTHER, "1000"), item("/price", PAYEE, "2000"), item("/agree", PAYEE, "1000")],
      [item("/payee", PAYEE, "1000"), item("/price", PAYEE, "1000"), item("/agree", PAYEE, "1000")],
    );
    const terms = await ctx.db.db.selectFrom("listing_quotes").select(["profile"]).where("source", "=", "catalog").distinct().execute();
    expect(terms).toHaveLength(2);

    const payee = await preflight("/payee");
    expect(payee.warnings).toContain("pay_to_changed");
    expect(payee.warnings).not.toContain("pay_to_mismatch");
    const price = await preflight("/price");
    expect(price.warnings).toContain("price_mismatch");
    expect(price.warnings).not.toContain("pay_to_changed");
    const agree = await preflight("/agree");
    expect(agree.warnings).not.toEqual(expect.arrayContaining(["pay_to_changed"]));
    expect(agree.warnings).not.toContain("price_mismatch");
  });
});
