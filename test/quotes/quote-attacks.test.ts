import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { DAY } from "../../src/services/signals/constants.js";
import { startProber, type ProberHandle } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { insertListings, startServer, USDC_BASE_SEPOLIA, type TestServer } from "../probes/helpers.js";

/**
 * The attacks of issue 24, each a real loopback endpoint probed by the real prober on the
 * injected clock: the verdicts must catch them (decision 0020).
 */
const INTERVAL_MS = 600_000;
const LISTED = "0x" + "a".repeat(40);
const OTHER = "0x" + "b".repeat(40);
const NOT_USDC = "0x" + "c".repeat(40);
let ctx: TestContext;
let server: TestServer;
let prober: ProberHandle;
/** Per path: the terms the endpoint quotes to a request with this User-Agent. */
type Quote = { amount: string; payTo?: string; asset?: string; network?: string; maxAmountRequired?: string };
const quotes = new Map<string, (ua: string) => Quote>();

const header = (url: string, q: Quote) =>
  Buffer.from(
    JSON.stringify({
      x402Version: 2,
      resource: { url },
      accepts: [
        {
          scheme: "exact",
          network: q.network ?? "eip155:84532",
          amount: q.amount,
          ...(q.maxAmountRequired ? { maxAmountRequired: q.maxAmountRequired } : {}),
          asset: q.asset ?? USDC_BASE_SEPOLIA,
          payTo: q.payTo ?? LISTED,
          maxTimeoutSeconds: 60,
          extra: { name: "USDC", version: "2" },
        },
      ],
    }),
  ).toString("base64");

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  server = await startServer((req, res) => {
    req.resume();
    const quote = quotes.get(req.url ?? "/")?.(String(req.headers["user-agent"] ?? ""));
    if (!quote) return res.writeHead(404).end();
    res.writeHead(402, { "payment-required": header(`${server.url}${req.url}`, quote), "content-type": "application/json" }).end("{}");
  });
  prober = startProber(ctx, { tickMs: 3_600_000, runAtStart: false, intervalSeconds: INTERVAL_MS / 1000 });
});

// Each attack is probed alone: the listings of the last one are out of the schedule.
afterEach(() => ctx.db.db.updateTable("listings").set({ is_active: false, deactivated_at: ctx.clock.now() }).execute());

afterAll(async () => {
  await prober.stop();
  await server.close();
  await ctx.close();
});

/** A listing of a service ten days old, listed at 0.001 USDC to LISTED on Base Sepolia. */
async function list(path: string): Promise<number> {
  const [id] = await insertListings(ctx.db.db, [{ url: `${server.url}${path}`, nextProbeAt: ctx.clock.now() }], new Date(ctx.clock.now().getTime() - 10 * DAY));
  await ctx.db.db.updateTable("listings").set({ pay_to: LISTED, price_atomic: "1000", price_usdc: "0.001", currency: "USDC" }).where("id", "=", id!).execute();
  return id!;
}

/** Runs `n` probes of the listing at its successive slots. */
async function probe(id: number, n: number) {
  for (let i = 0; i < n; i++) {
    const due = await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow();
    ctx.clock.set(due.next_probe_at);
    expect((await prober.runNow()).done).toBeGreaterThanOrEqual(1);
  }
}

const preflight = (path: string) => ctx.services.reports.preflight(`${server.url}${path}`);

describe("quote attacks the prober now catches", () => {
  it("an endpoint that quotes cheap only to a prober naming itself shows every profile the real price: a decoy", async () => {
    quotes.set("/named", (ua) => (/lookout|prober/i.test(ua) ? { amount: "1000" } : { amount: "5000000000" }));
    await probe(await list("/named"), 3);
    const r = await preflight("/named");
    expect(r.warnings).toContain("decoy_price_extreme");
    expect(r).toMatchObject({ ok: false, recommended_action: "skip" });
    expect(r.metadata.price_usdc).toBe("5000");
  });

  it("an endpoint that quotes cheap only to one client (cloaking by User-Agent) is flagged cloaking", async () => {
    quotes.set("/cloak", (ua) => (ua === "node" ? { amount: "1000" } : { amount: "5000000000" }));
    const id = await list("/cloak");
    await probe(id, 12);
    const profiles = await ctx.db.db.selectFrom("listing_quotes").select(["profile"]).distinct().where("listing_id", "=", id).execute();
    expect(profiles.length).toBeGreaterThan(1);
    const r = await preflight("/cloak");
    expect(r.reason_codes).toContain("cloaking");
    expect(r).toMatchObject({ ok: false, recommended_action: "skip" });
  });

  it("a price raised from 0.001 to 0.9 within a day (below the 10 USDC line) is a price switch: skip", async () => {
    let amount = "1000";
    quotes.set("/switch-price", () => ({ amount }));
    const id = await list("/switch-price");
    await probe(id, 3);
    expect((await preflight("/switch-price")).recommended_action).toBe("pay");
    amount = "900000";
    await probe(id, 1);
    const r = await preflight("/switch-price");
    expect(r.reason_codes).toEqual(expect.arrayContaining(["price_switch", "price_mismatch"]));
    expect(r.recommended_action).toBe("skip");
  });

  it("a payTo switched away from the listed one is critical, and the change is remembered for 7 days", async () => {
    let payTo = LISTED;
    quotes.set("/switch-payto", () => ({ amount: "1000", payTo }));
    const id = await list("/switch-payto");
    await probe(id, 3);
    payTo = OTHER;
    await probe(id, 1);
    const r = await preflight("/switch-payto");
    expect(r.reason_codes).toEqual(expect.arrayContaining(["pay_to_mismatch", "pay_to_changed"]));
    expect(r).toMatchObject({ ok: false, recommended_action: "skip" });
    const history = await ctx.db.db
      .selectFrom("listing_quotes")
      .innerJoin("quote_terms", "quote_terms.digest", "listing_quotes.digest")
      .select("pay_to")
      .where("listing_id", "=", id)
      .execute();
    expect(new Set(history.map((h) => h.pay_to))).toEqual(new Set([LISTED, OTHER]));
  });

  it("an asset that is not the network's USDC and a network other than the listed one are critical", async () => {
    quotes.set("/not-usdc", () => ({ amount: "1000", asset: NOT_USDC }));
    quotes.set("/other-network", () => ({ amount: "1000", network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }));
    await probe(await list("/not-usdc"), 2);
    await probe(await list("/other-network"), 2);
    const asset = await preflight("/not-usdc");
    expect(asset.reason_codes).toContain("asset_not_usdc");
    expect(asset).toMatchObject({ ok: false, recommended_action: "skip" });
    const network = await preflight("/other-network");
    expect(network.reason_codes).toContain("network_mismatch");
    expect(network.ok).toBe(false);
  });

  it("an amount that reads two ways (40 zero-padded digits beside maxAmountRequired 1000) is a malformed quote: skip, priced at what is signed", async () => {
    quotes.set("/padded", () => ({ amount: "0".repeat(34) + "999999", maxAmountRequired: "1000" }));
    const id = await list("/padded");
    await probe(id, 3);
    const r = await preflight("/padded");
    expect(r.reason_codes).toContain("malformed_quote");
    expect(r).toMatchObject({ ok: false, recommended_action: "skip", risk_score: 1 });
    const terms = await ctx.db.db
      .selectFrom("listing_quotes")
      .innerJoin("quote_terms", "quote_terms.digest", "listing_quotes.digest")
      .select(["amount", "malformed"])
      .where("listing_id", "=", id)
      .where("source", "=", "probe")
      .execute();
    expect(terms.map((t) => [String(t.amount), t.malformed])).toContainEqual(["999999", "amount_not_canonical"]);
    // The endpoint's page names the probe's quote malformed and shows no price for it (the catalog's 0.001 stays).
    const page = await (await createApp({ ctx, routes: productRoutes }).request(`/endpoints/${id}`)).text();
    expect(page).toContain("malformed quote (<code>amount_not_canonical</code>)");
    expect(page).not.toContain("0.999999 USDC");
    expect(page).toContain('999999 <span class="muted">atomic</span>');
  });

  it("every probe keeps the full terms it read and the profile it wore; none names the prober", async () => {
    const rows = await ctx.db.db
      .selectFrom("probes")
      .innerJoin("quote_terms", "quote_terms.digest", "probes.quote_digest")
      .select(["probes.profile", "quote_terms.x402_version", "quote_terms.scheme", "quote_terms.resource_url", "quote_terms.max_timeout_seconds"])
      .execute();
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows)
      expect(r).toMatchObject({ x402_version: 2, scheme: "exact", max_timeout_seconds: 60, resource_url: expect.stringContaining(server.url) });
    expect(new Set(rows.map((r) => r.profile)).size).toBeGreaterThan(1);
  });
});
