import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "../../src/services/catalog/backoff.js";
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, CATEGORIES } from "../../src/services/catalog/constants.js";
import { categoryOf, domainOf, parseListing, serviceIdOf } from "../../src/services/catalog/index.js";
import { BASE_SEPOLIA_USDC, BASE_USDC, v1Item, v2Item } from "./helpers/items.js";

const parse = (item: unknown) => {
  const r = parseListing(item, 2);
  if (!r.ok) throw new Error(`expected a listing, got: ${r.reason}`);
  return r.listing;
};

describe("price", () => {
  it("reads v2 amount and v1 maxAmountRequired as USDC with 6 decimals", () => {
    const v2 = parse(v2Item({ url: "https://a.example.com/x", amount: "1500000" }));
    expect(v2).toMatchObject({ priceAtomic: "1500000", priceUsdc: "1.5", currency: "USDC", network: "eip155:8453", asset: BASE_USDC });
    const v1 = parse(v1Item({ url: "https://a.example.com/y", amount: "2500", network: "base-sepolia", asset: BASE_SEPOLIA_USDC }));
    expect(v1).toMatchObject({ priceAtomic: "2500", priceUsdc: "0.0025", currency: "USDC", network: "eip155:84532", x402Version: 1 });
    const decoy = parse(v2Item({ url: "https://a.example.com/z", amount: "5000000000000" }));
    expect(decoy.priceUsdc).toBe("5000000");
  });

  it("takes the first exact entry paying its network's USDC, and keeps other assets in their own units", () => {
    const item = v2Item({ url: "https://a.example.com/x" });
    const usdc = item.accepts[0]!;
    (item as Record<string, unknown>).accepts = [
      { ...usdc, scheme: "upto", amount: "1" },
      { ...usdc, network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", payTo: "SoLPayee", amount: "2" },
      { ...usdc, amount: "30000" },
    ];
    const l = parse(item);
    expect(l.priceUsdc).toBe("0.03");
    // The provider is the first entry's payee (the billing namespace), lower-cased for EVM.
    expect(l.provider).toEqual({
      id: "eip155:8453:0x1111111111111111111111111111111111111111",
      network: "eip155:8453",
      payTo: "0x1111111111111111111111111111111111111111",
    });

    const other = parse(v2Item({ url: "https://a.example.com/w", asset: "0x00000000000000000000000000000000000000aa", amount: "7" }));
    expect(other).toMatchObject({ priceAtomic: "7", priceUsdc: null, currency: "0x00000000000000000000000000000000000000aa" });

    // Base's USDC address on Ethereum is not Ethereum's USDC: the amount stays in its own units.
    const wrongAsset = parse(v2Item({ url: "https://a.example.com/v", network: "eip155:1" }));
    expect(wrongAsset).toMatchObject({ priceUsdc: null, priceAtomic: "10000", currency: BASE_USDC, network: "eip155:1" });
    const unpriced = v2Item({ url: "https://a.example.com/u" });
    (unpriced as Record<string, unknown>).accepts = [{ ...usdc, scheme: "upto" }];
    expect(parse(unpriced)).toMatchObject({ priceUsdc: null, priceAtomic: null, currency: null, network: "eip155:8453" });
  });

  it("reads USDC on every network of the SDK's default-asset table and Circle's Solana mints, v1 names included", () => {
    const cases = [
      { network: "polygon", asset: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", caip: "eip155:137" },
      { network: "eip155:42161", asset: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", caip: "eip155:42161" },
      { network: "solana", asset: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", caip: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" },
      { network: "solana-devnet", asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", caip: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" },
    ];
    for (const c of cases) {
      const l = parse(
        v1Item({ url: "https://a.example.com/x", network: c.network, asset: c.asset, amount: "250000", payTo: "SoLPayeeCaseKept1111111111111111111111111" }),
      );
      expect(l).toMatchObject({ network: c.caip, asset: c.asset, priceUsdc: "0.25", priceAtomic: "250000", currency: "USDC" });
    }
    // A Solana mint is base58: the same letters in another case are another token, and the payee keeps its case.
    const lowered = parse(
      v2Item({
        url: "https://a.example.com/s",
        network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        asset: "epjfwdd5aufqssqem2qn1xzybapc8g4weggkzwytdt1v",
        payTo: "SoLPayeeCaseKept",
      }),
    );
    expect(lowered).toMatchObject({ priceUsdc: null, priceAtomic: "10000", payTo: "SoLPayeeCaseKept", provider: { payTo: "SoLPayeeCaseKept" } });
    // Another stablecoin of the table keeps its atomic amount and is named by its symbol.
    const usdt0 = parse(v2Item({ url: "https://a.example.com/t", network: "eip155:988", asset: "0x779Ded0c9e1022225f8E0630b35a9b54bE713736", amount: "5" }));
    expect(usdt0).toMatchObject({ priceUsdc: null, priceAtomic: "5", currency: "USDT0" });
  });
});

describe("method", () => {
  it("comes from the bazaar extension (v2) or the outputSchema (v1), default POST", () => {
    expect(parse(v2Item({ url: "https://a.example.com/x", method: "get" })).method).toBe("GET");
    expect(parse(v1Item({ url: "https://a.example.com/x", method: "PUT" })).method).toBe("PUT");
    expect(parse(v2Item({ url: "https://a.example.com/x" })).method).toBe("POST");
    expect(parse(v2Item({ url: "https://a.example.com/x", method: "TELEPORT" })).method).toBe("POST");
  });
});

describe("group keys", () => {
  it("service is the service name, else the origin, with a stable slug id", () => {
    const named = parse(v2Item({ url: "https://API.Example.com:443/a?b=1#frag", serviceName: "  Crème Weather API " }));
    expect(named).toMatchObject({
      serviceName: "Crème Weather API",
      serviceId: "creme-weather-api",
      urlNormalized: "https://api.example.com/a?b=1",
      host: "api.example.com",
    });
    const unnamed = parse(v2Item({ url: "http://10.0.0.5:8080/x" }));
    expect(unnamed).toMatchObject({ serviceName: "http://10.0.0.5:8080", serviceId: "10-0-0-5-8080" });
    expect(serviceIdOf("天气")).toMatch(/^svc-[0-9a-f]{12}$/);
    expect(serviceIdOf("天气")).toBe(serviceIdOf("天气"));
  });

  it("domain is the registrable domain, or the host itself for IPs and localhost", () => {
    expect(domainOf("https://a.b.example.co.uk/x")).toBe("example.co.uk");
    expect(domainOf("https://my-app.vercel.app/x")).toBe("my-app.vercel.app");
    expect(domainOf("http://127.0.0.1:4021/x")).toBe("127.0.0.1:4021");
    expect(domainOf("http://[::1]:4021/x")).toBe("[::1]:4021");
    expect(domainOf("http://localhost:3000/x")).toBe("localhost:3000");
  });

  it("category maps the first known tag onto the vocabulary, case-insensitively", () => {
    expect(categoryOf(["LLM", "finance"])).toBe("ai");
    expect(categoryOf(["misc", "Market Data"])).toBe("finance");
    expect(categoryOf(["Weather_Forecast", "forecast"])).toBe("weather");
    expect(categoryOf(["misc"])).toBe("other");
    expect(categoryOf([])).toBeNull();
    for (const c of CATEGORIES.filter((c) => c !== "other")) expect(categoryOf([c.toUpperCase()])).toBe(c);
  });
});

describe("malformed and skipped items", () => {
  it("names what is wrong", () => {
    const reasons = [
      null,
      "string",
      { type: "http", accepts: [] },
      { resource: "ftp://x.example.com/a", accepts: v2Item({ url: "https://x" }).accepts },
      { resource: "https://x.example.com/a", accepts: [] },
      { resource: "https://x.example.com/a", accepts: [{ scheme: "exact" }] },
      v2Item({ url: "https://x.example.com/a", amount: "1.5" }),
      v2Item({ url: "not a url" }),
    ].map((item) => {
      const r = parseListing(item, 2);
      return r.ok ? "ok" : r.reason;
    });
    expect(reasons.every((r) => r !== "ok")).toBe(true);
    expect(reasons[4]).toMatch(/accepts: has no accepts entries/);
    expect(reasons[6]).toMatch(/not one canonical decimal integer/);
    expect(reasons[7]).toMatch(/resource: not an absolute http\(s\) URL/);
  });

  it("skips MCP tools (not probed over HTTP) without calling them malformed", () => {
    const r = parseListing({ ...v2Item({ url: "https://mcp.example.com/" }), type: "mcp" }, 2);
    expect(r).toMatchObject({ ok: false, skipped: true });
  });

  it("keeps usage figures and drops unreadable ones", () => {
    const l = parse(
      v2Item({ url: "https://a.example.com/x", quality: { l30DaysTotalCalls: 12, l30DaysUniquePayers: -1, lastCalledAt: "2026-11-01T00:00:00Z" } }),
    );
    expect(l).toMatchObject({ l30dCalls: 12, l30dUniquePayers: null, lastCalledAt: new Date("2026-11-01T00:00:00Z") });
  });
});

describe("backoff", () => {
  it("doubles per failure within the jitter and stops at the cap", () => {
    const mid = () => 0.5;
    expect(backoffDelayMs(1, mid)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelayMs(3, mid)).toBe(4 * BACKOFF_BASE_MS);
    expect(backoffDelayMs(50, mid)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelayMs(2, () => 0)).toBeLessThan(backoffDelayMs(2, () => 0.999));
  });
});
