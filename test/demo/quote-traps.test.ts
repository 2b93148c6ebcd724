import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { PROBE_PROFILES } from "../../src/services/probes/profiles.js";
import { challengeOf, one, readCatalog, startFleetOnDevnet, type FleetOnDevnet } from "./helpers.js";

const SWITCH_MS = 15 * 60_000;
const clock = new ManualClock();
let env: FleetOnDevnet;

beforeAll(async () => {
  env = await startFleetOnDevnet({ slowMs: 50, clock, quoteSwitchAfterMs: SWITCH_MS });
});

afterAll(async () => {
  await env?.stop();
});

/** The first requirement of a naked GET's PAYMENT-REQUIRED header, as a client with this User-Agent reads it. */
async function quoted(url: string, userAgent: string = PROBE_PROFILES.fetch["user-agent"]) {
  const res = await fetch(url, { headers: { "user-agent": userAgent }, signal: AbortSignal.timeout(10_000) });
  expect(res.status, url).toBe(402);
  const challenge = challengeOf(res);
  expect(challenge).toMatchObject({ x402Version: 2, resource: { url } });
  expect(challenge.accepts).toHaveLength(1);
  return challenge.accepts[0]!;
}

const listedTerms = async (url: string) => (await readCatalog(env.fleet.catalogUrl, 1000)).items.find((i) => i.resource === url)!.accepts[0]!;

describe("Mirage Labs' quote traps: listed at honest terms, quoting others", () => {
  it("are listed cheap, in the network's USDC, to Mirage Labs' own payTo, on their own host", async () => {
    for (const kind of ["cloaked_quote", "price_switch", "pay_to_switch", "non_usdc_asset"] as const) {
      const e = one(env.fleet, kind);
      expect(e.provider).toBe("Mirage Labs");
      expect(new URL(e.url).origin).toBe(env.fleet.hosts.quotes);
      expect(await listedTerms(e.url)).toMatchObject({ amount: e.amount, payTo: e.payTo, asset: env.devnet.usdcAddress, network: env.devnet.network });
      expect(e.expected.naked).toBe("402_unlisted_terms");
    }
  });

  it("cloaked: the listed price only to User-Agent node, 5000 USDC to every other client profile", async () => {
    const e = one(env.fleet, "cloaked_quote");
    expect(await quoted(e.url)).toEqual(await listedTerms(e.url));
    for (const profile of ["axios", "httpx", "browser"] as const) {
      const terms = await quoted(e.url, PROBE_PROFILES[profile]["user-agent"]);
      expect(terms, profile).toEqual({ ...(await listedTerms(e.url)), amount: usdcToAtomic("5000") });
    }
  });

  it("switchers: the listed terms until quoteSwitchAfterMs on the fleet's clock, then 0.9 USDC and another payTo", async () => {
    const price = one(env.fleet, "price_switch");
    const payTo = one(env.fleet, "pay_to_switch");
    clock.advance(SWITCH_MS - 1_000);
    for (const e of [price, payTo]) expect(await quoted(e.url, PROBE_PROFILES.httpx["user-agent"])).toEqual(await listedTerms(e.url));
    clock.advance(1_000);
    expect(await quoted(price.url)).toEqual({ ...(await listedTerms(price.url)), amount: "900000" });
    const switched = await quoted(payTo.url);
    expect(switched).toEqual({ ...(await listedTerms(payTo.url)), payTo: payTo.quoteTrick!.payTo });
    expect(switched.payTo.toLowerCase()).not.toBe(payTo.payTo.toLowerCase());
    expect(env.fleet.endpoints.map((x) => x.payTo.toLowerCase())).not.toContain(switched.payTo.toLowerCase());
  });

  it("non-USDC: every client is quoted a token named USDC at an address that is not the network's USDC", async () => {
    const e = one(env.fleet, "non_usdc_asset");
    for (const ua of [PROBE_PROFILES.fetch["user-agent"], PROBE_PROFILES.browser["user-agent"]]) {
      const terms = await quoted(e.url, ua);
      expect(terms).toEqual({ ...(await listedTerms(e.url)), asset: e.quoteTrick!.asset!.address });
      expect(terms.asset.toLowerCase()).not.toBe(env.devnet.usdcAddress.toLowerCase());
      expect(terms.extra).toMatchObject({ name: "USDC", version: "2" });
    }
  });
});
