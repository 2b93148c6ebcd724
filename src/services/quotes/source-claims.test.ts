import { describe, expect, it } from "vitest";
import { settleSources, type LiveTerms, type SourceTerms } from "./source-claims.js";
import { withCatalog } from "./observed.js";

/** Decision 0032: which source's terms are listed, and which sources are only their own claim. */
const HONEST = "0x" + "a".repeat(40);
const POISON = "0x" + "b".repeat(40);
const MOVED = "0x" + "c".repeat(40);
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const t0 = new Date("2026-11-01T00:00:00Z");
const later = (h: number) => new Date(t0.getTime() + h * 3_600_000);

const source = (id: string, payTo: string, over: Partial<SourceTerms> = {}): SourceTerms => ({
  source: id,
  kind: "bazaar",
  network: "eip155:84532",
  asset: USDC,
  payTo,
  amount: "1000",
  priceUsdc: "0.001",
  firstSeenAt: t0,
  ...over,
});
const live = (payTo: string, amount = "1000"): LiveTerms => ({ network: "eip155:84532", asset: USDC.toLowerCase(), payTo, amount });

describe("settleSources", () => {
  it("a challenge that agrees with one source lists that source and names the other as its own claim", () => {
    // The poisoned source came later and was sighted last: neither makes it the listed one.
    const honest = source("cdp", HONEST);
    const poisoned = source("rogue", POISON, { firstSeenAt: later(5) });
    for (const order of [
      [honest, poisoned],
      [poisoned, honest],
    ]) {
      const c = settleSources(order, live(HONEST.toUpperCase().replace("0X", "0x")));
      expect(c.listed).toMatchObject({ source: "cdp", payTo: HONEST });
      expect(c.disagreeing).toEqual([expect.objectContaining({ source: "rogue", payTo: POISON })]);
      expect(c).toMatchObject({ sources: 1, payTos: 1, amounts: 1 });
    }
  });

  it("even an older source the challenge contradicts is only a claim", () => {
    const c = settleSources([source("old", POISON), source("new", HONEST, { firstSeenAt: later(48) })], live(HONEST));
    expect(c.listed?.source).toBe("new");
    expect(c.disagreeing?.map((d) => d.source)).toEqual(["old"]);
  });

  it("a price another source contradicts is that source's claim; the source agreeing on price is listed", () => {
    const c = settleSources([source("stale", HONEST, { amount: "5000" }), source("fresh", HONEST, { firstSeenAt: later(1) })], live(HONEST));
    expect(c.listed?.source).toBe("fresh");
    expect(c.disagreeing?.map((d) => d.source)).toEqual(["stale"]);
    expect(c.amounts).toBe(1);
  });

  it("one source with a stale price stays listed: price_mismatch judges it, not source_disagrees", () => {
    const c = settleSources([source("only", HONEST, { amount: "5000" })], live(HONEST));
    expect(c.listed?.amount).toBe("5000");
    expect(c.disagreeing).toBeUndefined();
  });

  it("a provider that moved its payTo contradicts every source: nothing is set aside and the incumbent is listed", () => {
    const c = settleSources([source("b", POISON, { firstSeenAt: later(2) }), source("a", HONEST)], live(MOVED));
    expect(c.listed).toMatchObject({ source: "a", payTo: HONEST });
    expect(c.disagreeing).toBeUndefined();
    expect(c.payTos).toBe(2);
    // A later source naming the live price (but not its payee) does not displace the incumbent.
    const priced = settleSources([source("a", HONEST, { amount: "900" }), source("b", POISON, { firstSeenAt: later(2) })], live(MOVED));
    expect(priced.listed?.source).toBe("a");
  });

  it("another network is no agreement, whatever the payee", () => {
    const c = settleSources([source("a", HONEST, { network: "eip155:8453" })], live(HONEST));
    expect(c.disagreeing).toBeUndefined();
    expect(c.listed?.network).toBe("eip155:8453");
  });

  it("without a challenge the provider's manifest outranks an older catalog, and disagreement counts", () => {
    const c = settleSources([source("cdp", POISON), source("manifest:http://x", HONEST, { kind: "manifest", firstSeenAt: later(9) })], null);
    expect(c.listed).toMatchObject({ source: "manifest:http://x", payTo: HONEST });
    expect(c.disagreeing).toBeUndefined();
    expect(c.payTos).toBe(2);
  });

  it("without a challenge or a manifest the longest-listing source is listed", () => {
    const c = settleSources([source("late", POISON, { firstSeenAt: later(1) }), source("early", HONEST)], null);
    expect(c.listed?.source).toBe("early");
  });

  it("among sources the challenge agrees with, the manifest is listed", () => {
    const c = settleSources([source("cdp", HONEST), source("manifest:http://x", HONEST, { kind: "manifest", firstSeenAt: later(3) })], live(HONEST));
    expect(c.listed?.source).toBe("manifest:http://x");
    expect(c.disagreeing).toBeUndefined();
  });
});

describe("withCatalog", () => {
  it("an unprobed listing whose sources agree keeps no quote evidence; one whose sources disagree lists the incumbent", () => {
    expect(withCatalog(null, [source("a", HONEST), source("b", HONEST)])).toBeNull();
    const q = withCatalog(null, [source("b", POISON, { firstSeenAt: later(1) }), source("a", HONEST)]);
    expect(q?.live).toBeNull();
    expect(q?.catalog).toMatchObject({ payTos: 2, listed: { source: "a" } });
  });
});
