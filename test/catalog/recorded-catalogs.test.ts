import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProber } from "../helpers/start-prober.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { ingestOnce } from "./helpers/ingest.js";
import { loopbackUrl, startRecordedCatalog, startRecordedEndpoints, type RecordedCatalog } from "./helpers/recorded-catalogs.js";
import type { TestServer } from "../probes/helpers.js";

const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const SOL_USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SOL_DEVNET_USDC = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
const SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";

/** What each recorded listing must become: parsed terms, and what a naked probe of it reads. */
const EXPECTED = [
  // CDP: v2 Base, v1 `base`, v2 Solana (its 402 offers Base first), v2 Polygon; its MCP tool is skipped.
  {
    url: "https://api.harbourweather.example/v1/forecast",
    method: "GET",
    v: 2,
    network: "eip155:8453",
    asset: BASE_USDC,
    atomic: "12000",
    usdc: "0.012",
    payTo: "0x7a11c0ffee00000000000000000000000000b45e",
  },
  {
    url: "https://legacy.tollbooth.example/api/quote",
    method: "POST",
    v: 1,
    network: "eip155:8453",
    asset: BASE_USDC,
    atomic: "50000",
    usdc: "0.05",
    payTo: "0x7a11c0ffee00000000000000000000000000b45f",
  },
  {
    url: "https://sol.inkwell.example/translate",
    method: "POST",
    v: 2,
    network: SOLANA,
    asset: SOL_USDC,
    atomic: "2500",
    usdc: "0.0025",
    payTo: "Fz3kQp9WmT7vYc2RbN8xLd5HsJ4gAe6uKo1iPq3MnVb",
  },
  {
    url: "https://maps.pinpoint.example/geocode",
    method: "GET",
    v: 2,
    network: "eip155:137",
    asset: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    atomic: "3000",
    usdc: "0.003",
    payTo: "0x7a11c0ffee00000000000000000000000000b460",
  },
  // Circle: v2 Base (Gateway batched), v2 Arbitrum, v2 Solana devnet; service names from metadata.provider.
  {
    url: "https://ledger.countinghouse.example/v2/fx-rate",
    method: "GET",
    v: 2,
    network: "eip155:8453",
    asset: BASE_USDC,
    atomic: "8000",
    usdc: "0.008",
    payTo: "0x7a11c0ffee00000000000000000000000000c001",
    service: "Counting House",
  },
  {
    url: "https://arb.oracle-desk.example/price",
    method: "POST",
    v: 2,
    network: "eip155:42161",
    asset: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    atomic: "20000",
    usdc: "0.02",
    payTo: "0x7a11c0ffee00000000000000000000000000c002",
  },
  {
    url: "https://devnet.mintwatch.example/holders",
    method: "GET",
    v: 2,
    network: SOLANA_DEVNET,
    asset: SOL_DEVNET_USDC,
    atomic: "100000",
    usdc: "0.1",
    payTo: "8mHqTt4ZwRk2Ny6XcVb9PsDf3Lg7Ju5Ea1Yr2Kq8WnSd",
  },
  // PayAI (v1 envelope): v1 `solana`, `solana-devnet`, `base-sepolia`, and a v2-shaped item without x402Version.
  {
    url: "https://pay.solscan-lite.example/api/account",
    method: "GET",
    v: 1,
    network: SOLANA,
    asset: SOL_USDC,
    atomic: "10000",
    usdc: "0.01",
    payTo: "Fz3kQp9WmT7vYc2RbN8xLd5HsJ4gAe6uKo1iPq3MnVb",
  },
  {
    url: "https://devnet.faucetbot.example/drip",
    method: "POST",
    v: 1,
    network: SOLANA_DEVNET,
    asset: SOL_DEVNET_USDC,
    atomic: "5000",
    usdc: "0.005",
    payTo: "8mHqTt4ZwRk2Ny6XcVb9PsDf3Lg7Ju5Ea1Yr2Kq8WnSd",
  },
  {
    url: "https://sepolia.echo-api.example/echo",
    method: "POST",
    v: 1,
    network: "eip155:84532",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    atomic: "1000",
    usdc: "0.001",
    payTo: "0x7a11c0ffee00000000000000000000000000d001",
  },
  {
    url: "https://reviews.tripnote.example/api/v1/location/details",
    method: "GET",
    v: 2,
    network: "eip155:8453",
    asset: BASE_USDC,
    atomic: "10000",
    usdc: "0.01",
    payTo: "0x7a11c0ffee00000000000000000000000000d002",
  },
];

let ctx: TestContext;
let endpoints: TestServer & { hits: string[] };
const catalogs: RecordedCatalog[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_TARGETS: "true" });
  endpoints = await startRecordedEndpoints();
  for (const name of ["cdp", "circle", "payai"] as const) catalogs.push(await startRecordedCatalog(name, endpoints));
});
afterAll(async () => {
  await Promise.all([endpoints?.close(), ...catalogs.map((c) => c.close())]);
  await ctx?.close();
});

describe("recorded CDP, Circle and PayAI catalogs", () => {
  it("are ingested into one catalog (a 429 with Retry-After mid-way is waited out), then probed", async () => {
    const [cdp, circle, payai] = catalogs as [RecordedCatalog, RecordedCatalog, RecordedCatalog];
    payai.rateLimit = { call: 2, retryAfter: "1" };
    const summaries = await ingestOnce(ctx, [cdp.source, circle.source, payai.source], { pageLimit: 3 });
    expect(summaries.map((s) => [s.complete, s.error])).toEqual([
      [true, null],
      [true, null],
      [true, null],
    ]);
    // PayAI's second page was refused once, then asked again.
    expect(payai.requests).toEqual(["?limit=3&offset=0", "?limit=3&offset=3", "?limit=3&offset=3"]);

    const rows = await ctx.db.db.selectFrom("listings").selectAll().where("is_active", "=", true).orderBy("id").execute();
    expect(rows).toHaveLength(EXPECTED.length);
    for (const e of EXPECTED) {
      const row = rows.find((r) => r.url === loopbackUrl(endpoints, e.url));
      expect(row, e.url).toBeDefined();
      expect({ ...row, url: e.url }).toMatchObject({
        url: e.url,
        method: e.method,
        x402_version: e.v,
        network: e.network,
        asset: e.asset,
        pay_to: e.payTo,
        currency: "USDC",
      });
      expect([Number(row!.price_atomic), Number(row!.price_usdc)], e.url).toEqual([Number(e.atomic), Number(e.usdc)]);
      if (e.service) expect(row!.service_id).toBe("counting-house");
    }

    // Every new listing's first probe is due within its first minute.
    ctx.clock.advance(60_000);
    const prober = startProber(ctx, { runAtStart: false });
    await prober.runNow();
    await prober.stop();
    const probes = await ctx.db.db
      .selectFrom("probes")
      .innerJoin("listings", "listings.id", "probes.listing_id")
      .leftJoin("quote_terms", "quote_terms.digest", "probes.quote_digest")
      .select([
        "listings.url",
        "probes.outcome",
        "probes.price_usdc",
        "probes.challenge_version",
        "quote_terms.network",
        "quote_terms.asset",
        "quote_terms.amount",
        "quote_terms.pay_to",
      ])
      .execute();
    for (const e of EXPECTED) {
      const p = probes.find((r) => r.url === loopbackUrl(endpoints, e.url));
      expect(p, `probe of ${e.url}`).toBeDefined();
      // The challenge's own network name is kept as read (v1 `solana`), its amount in the asset's units.
      expect({
        url: e.url,
        outcome: p!.outcome,
        version: p!.challenge_version,
        asset: p!.asset,
        amount: Number(p!.amount),
        usdc: Number(p!.price_usdc),
      }).toEqual({
        url: e.url,
        outcome: "healthy",
        version: e.v,
        asset: e.asset,
        amount: Number(e.atomic),
        usdc: Number(e.usdc),
      });
    }
    // The Solana listing's 402 offered Base first: the probe read the entry on the listing's network.
    const inkwell = probes.find((r) => r.url === loopbackUrl(endpoints, "https://sol.inkwell.example/translate"))!;
    expect([inkwell.network, inkwell.pay_to]).toEqual([SOLANA, "Fz3kQp9WmT7vYc2RbN8xLd5HsJ4gAe6uKo1iPq3MnVb"]);
    expect(endpoints.hits.some((h) => h.startsWith("GET /tools.inkwell.example"))).toBe(false);
  });
});
