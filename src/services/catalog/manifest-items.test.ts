import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { itemFromChallenge, manifestItems, manifestResources } from "./manifest-items.js";
import { parseListing } from "./parse-listing.js";

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../test/fixtures/catalogs/manifests/${name}`, import.meta.url), "utf8"));
const ORIGIN = "https://tides.example.net";

describe("OpenAPI documents with x-payment-info", () => {
  const doc = fixture("openapi.json");

  it("names each paid operation under the server URL, with its method and USD price; templated paths and free operations are left out", () => {
    const resources = manifestResources(doc, ORIGIN);
    expect(resources.map((r) => [r.method, r.url, r.priceUsd])).toEqual([
      ["GET", "https://tides.example.net/api/tides", "0.02"],
      ["POST", "https://tides.example.net/api/forecast", "0.05"],
      ["GET", "https://tides.example.net/api/archive", "0.10"],
    ]);
  });

  it("makes a Bazaar item only where the x402 protocol entry states the terms, and parse-listing reads it", () => {
    const items = manifestItems(doc, ORIGIN);
    expect(items).toHaveLength(1);
    const parsed = parseListing(items[0], 2);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.listing).toMatchObject({
      url: "https://tides.example.net/api/tides",
      method: "GET",
      network: "eip155:8453",
      priceAtomic: "20000",
      priceUsdc: "0.02",
      payTo: "0x5e1a000000000000000000000000000000000a11",
      description: "Tide predictions for a harbour",
    });
  });

  it("keeps a server on another origin from listing that origin's paths", () => {
    const foreign = { openapi: "3.0.0", servers: [{ url: "https://victim.example.com" }], paths: (doc as { paths: unknown }).paths };
    expect(manifestResources(foreign, ORIGIN).every((r) => r.url.startsWith(`${ORIGIN}/`))).toBe(true);
  });
});

describe("/.well-known/x402 documents", () => {
  it("reads the x402scan shape (version 1, resources as URLs or paths) and drops other origins", () => {
    const resources = manifestResources(fixture("well-known-x402.json"), ORIGIN);
    expect(resources.map((r) => [r.method, r.url])).toEqual([
      ["", "https://tides.example.net/api/tides"],
      ["", "https://tides.example.net/api/forecast"],
      ["POST", "https://tides.example.net/api/bulk"],
    ]);
    expect(manifestItems(fixture("well-known-x402.json"), ORIGIN)).toEqual([]);
  });

  it("passes Bazaar-like items with accepts through, Solana terms and case intact", () => {
    const items = manifestItems(fixture("well-known-x402-items.json"), ORIGIN);
    expect(items).toHaveLength(1);
    const parsed = parseListing(items[0], 2);
    expect(parsed.ok && parsed.listing).toMatchObject({
      method: "GET",
      network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      payTo: "TideS7nPayee4aLpHq2Vw9fXcR3mKdBz8yEuJtG5hN1",
      priceAtomic: "1500",
      priceUsdc: "0.0015",
      currency: "USDC",
    });
  });

  it("ignores documents that are not manifests", () => {
    for (const doc of [null, "text", [], { resources: "x" }, { openapi: "3.1.0", paths: [] }]) expect(manifestResources(doc, ORIGIN)).toEqual([]);
  });
});

describe("a resource's 402 challenge as an item", () => {
  it("turns a v1 body and a v2 header object into items parse-listing reads", () => {
    const v1 = {
      x402Version: 1,
      error: "X-PAYMENT header is required",
      accepts: [
        {
          scheme: "exact",
          network: "base",
          maxAmountRequired: "5000",
          resource: `${ORIGIN}/api/sun`,
          description: "Sunrise",
          payTo: "0x5e1a000000000000000000000000000000000a11",
          asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          maxTimeoutSeconds: 60,
        },
      ],
    };
    const fromV1 = parseListing(itemFromChallenge(`${ORIGIN}/api/sun`, "GET", v1), 2);
    expect(fromV1.ok && fromV1.listing).toMatchObject({ x402Version: 1, network: "eip155:8453", priceUsdc: "0.005", method: "GET", description: "Sunrise" });
    const v2 = {
      x402Version: 2,
      resource: { url: `${ORIGIN}/api/sun`, description: "Sunrise" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "7",
          asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          payTo: "0x5e1a000000000000000000000000000000000a11",
          maxTimeoutSeconds: 60,
        },
      ],
    };
    const fromV2 = parseListing(itemFromChallenge(`${ORIGIN}/api/sun`, "", v2), 2);
    expect(fromV2.ok && fromV2.listing).toMatchObject({ x402Version: 2, network: "eip155:84532", priceUsdc: "0.000007", method: "POST" });
    expect(itemFromChallenge(`${ORIGIN}/x`, "GET", { accepts: [] })).toBeNull();
  });
});
