import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body } from "../helpers/http.js";
import { EXPECTATIONS, type DemoKind } from "../../src/demo/index.js";
import { challengeOf, nakedEndpoint, readCatalog, startFleetOnDevnet, type FleetOnDevnet } from "./helpers.js";

let env: FleetOnDevnet;

beforeAll(async () => {
  env = await startFleetOnDevnet({ slowMs: 50 });
});

afterAll(async () => {
  await env?.stop();
});

describe("demo catalog (x402 Bazaar discovery format)", () => {
  it("pages through every endpoint exactly once", async () => {
    const { fleet } = env;
    const { items, pages } = await readCatalog(fleet.catalogUrl, 7);
    expect(pages.length).toBe(Math.ceil(fleet.endpoints.length / 7));
    for (const [i, page] of pages.entries()) {
      expect(page.x402Version).toBe(2);
      expect(page.pagination).toEqual({ limit: 7, offset: i * 7, total: fleet.endpoints.length });
      expect(page.items.length).toBeLessThanOrEqual(7);
    }
    expect(items.map((i) => i.resource)).toEqual(fleet.endpoints.map((e) => e.url));
  });

  it("defaults to 100 per page, caps at 1000, refuses bad numbers and filters by type", async () => {
    const get = (q: string) => fetch(`${env.fleet.catalogUrl}${q}`);
    const all = await body(await get(""));
    expect(all.pagination).toEqual({ limit: 100, offset: 0, total: env.fleet.endpoints.length });
    expect((await body(await get("?limit=5000"))).pagination.limit).toBe(1000);
    expect((await body(await get(`?offset=${env.fleet.endpoints.length}`))).items).toEqual([]);
    expect((await body(await get("?type=mcp"))).pagination.total).toBe(0);
    for (const bad of ["?limit=0", "?limit=abc", "?offset=-1", "?limit=2.5"]) expect((await get(bad)).status).toBe(400);
  });

  it("describes each listing as the Bazaar does: accepts, method, service, tags, quality", async () => {
    const { fleet, devnet } = env;
    const { items } = await readCatalog(fleet.catalogUrl, 1000);
    for (const [i, e] of fleet.endpoints.entries()) {
      const item = items[i]!;
      expect(item).toMatchObject({ resource: e.url, type: "http", x402Version: 2, serviceName: e.serviceName, tags: e.tags, description: e.description });
      expect(item.accepts).toHaveLength(1);
      expect(item.accepts[0]).toMatchObject({
        scheme: "exact",
        network: devnet.network,
        amount: e.amount,
        asset: devnet.usdcAddress,
        payTo: e.payTo,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      });
      expect((item.extensions as any).bazaar.info.input.method).toBe(e.method);
      expect(Date.parse(item.lastUpdated)).toBeLessThan(Date.now());
      expect(item.quality).toEqual(e.quality);
    }
  });

  it("lists the same payment requirements the endpoints' own 402 challenges carry", async () => {
    const { fleet } = env;
    const { items } = await readCatalog(fleet.catalogUrl, 1000);
    const challenging = fleet.endpoints.filter((e) => EXPECTATIONS[e.kind].naked.startsWith("402_challenge"));
    expect(challenging.length).toBeGreaterThanOrEqual(20);
    for (const e of challenging) {
      const res = await nakedEndpoint(e);
      expect(res.status, e.url).toBe(402);
      expect(challengeOf(res).accepts).toEqual(items.find((i) => i.resource === e.url)!.accepts);
    }
  });

  it("covers every kind, on distinct hosts, with distinct providers", () => {
    const { fleet } = env;
    const kinds = new Set(fleet.endpoints.map((e) => e.kind));
    expect([...kinds].sort()).toEqual((Object.keys(EXPECTATIONS) as DemoKind[]).sort());
    const healthy = fleet.endpoints.filter((e) => e.kind === "healthy");
    expect(healthy.length).toBeGreaterThanOrEqual(8);
    expect(new Set(healthy.map((e) => e.serviceName)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(healthy.map((e) => e.payTo)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(healthy.map((e) => e.price)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(healthy.map((e) => e.tags[0])).size).toBeGreaterThanOrEqual(5);
    expect(new Set(Object.values(fleet.hosts)).size).toBe(Object.keys(fleet.hosts).length);
    const providers = new Map(fleet.endpoints.map((e) => [e.payTo, e.provider]));
    expect(new Set(providers.values()).size).toBe(providers.size);
  });
});

describe("catalog changes while running", () => {
  it("adds, replaces and removes listings", async () => {
    const { fleet } = env;
    const total = fleet.endpoints.length;
    const url = `${fleet.hosts.marketplace}/weather/air-quality`;
    fleet.addListing({ url, serviceName: "Skycast Weather", price: "0.002", tags: ["weather"] });
    let { items } = await readCatalog(fleet.catalogUrl, 10);
    expect(items).toHaveLength(total + 1);
    const added = items.at(-1)!;
    expect(added).toMatchObject({ resource: url, type: "http", x402Version: 2, serviceName: "Skycast Weather", quality: { l30DaysTotalCalls: 0 } });
    expect(added.accepts[0]).toEqual({ ...items[0]!.accepts[0], amount: "2000", payTo: env.devnet.payTo });
    expect((added.extensions as any).bazaar.info.input.method).toBe("GET");

    fleet.addListing({ url, method: "POST", serviceName: "Skycast Weather", price: "0.004" });
    ({ items } = await readCatalog(fleet.catalogUrl, 10));
    expect(items).toHaveLength(total + 1);
    expect(items.at(-1)!.accepts[0]!.amount).toBe("4000");
    expect((items.at(-1)!.extensions as any).bazaar.info.input.method).toBe("POST");

    const dropped = fleet.endpoints[3]!.url;
    expect(fleet.removeListing(url)).toBe(true);
    expect(fleet.removeListing(dropped)).toBe(true);
    expect(fleet.removeListing(dropped)).toBe(false);
    ({ items } = await readCatalog(fleet.catalogUrl, 10));
    expect(items).toHaveLength(total - 1);
    expect(items.map((i) => i.resource)).not.toContain(dropped);
    // A delisted endpoint keeps answering, as real ones do.
    expect((await nakedEndpoint(fleet.endpoints[3]!)).status).toBe(402);
  });
});
