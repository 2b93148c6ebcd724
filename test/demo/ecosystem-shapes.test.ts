import { get as httpGet } from "node:http";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { challengeOf, naked, one, startFleetOnDevnet, type FleetOnDevnet } from "./helpers.js";

/**
 * The shapes of the real ecosystem the fleet gained in issue 37, as a client meets them: input
 * validated before the quote, a refusal of every input, a 100 KiB challenge, an early death.
 */
let env: FleetOnDevnet;
const clock = new ManualClock();

beforeAll(async () => {
  env = await startFleetOnDevnet({ clock });
});

afterAll(async () => {
  await env?.stop();
});

/** fetch stops at 16 KiB of headers, as Node does; a prober that reads large challenges does not. */
const nakedLarge = (url: string) =>
  new Promise<{ status: number; header: string }>((resolve, reject) => {
    httpGet(url, { maxHeaderSize: 256 * 1024 }, (res) => {
      res.resume();
      resolve({ status: res.statusCode!, header: String(res.headers["payment-required"]) });
    }).on("error", reject);
  });

const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the real ecosystem's shapes in the demo fleet", () => {
  it("needs_query: 422 without the declared query or body field, a challenge with it", async () => {
    const [get, viaBody] = env.fleet.endpoints.filter((e) => e.kind === "needs_query");
    expect([get!.method, viaBody!.method]).toEqual(["GET", "POST"]);
    expect((await naked(get!.url)).status).toBe(422);
    const withQuery = await fetch(`${get!.url}?q=Lisbon`);
    expect(withQuery.status).toBe(402);
    expect(challengeOf(withQuery).accepts[0]).toMatchObject({ amount: get!.amount, payTo: get!.payTo });
    expect((await naked(viaBody!.url, "POST")).status).toBe(422);
    expect((await post(viaBody!.url, { url: "https://example.com/" })).status).toBe(402);
  });

  it("needs_input: 422 to everything, its declared example included, never a challenge", async () => {
    const e = one(env.fleet, "needs_input");
    for (const res of [await naked(e.url, "POST"), await post(e.url, { url: "https://example.com/" })]) {
      expect(res.status).toBe(422);
      expect(res.headers.get("payment-required")).toBeNull();
    }
  });

  it("big_challenge: a PAYMENT-REQUIRED of about 100 KiB whose own accept prices the listing", async () => {
    const e = one(env.fleet, "big_challenge");
    const { status, header } = await nakedLarge(e.url);
    expect(status).toBe(402);
    expect(header.length).toBeGreaterThan(90 * 1024);
    expect(header.length).toBeLessThan(128 * 1024);
    const { accepts } = decodePaymentRequiredHeader(header);
    expect(accepts).toHaveLength(41);
    expect(accepts.filter((a) => a.network === env.devnet.network)).toEqual([expect.objectContaining({ amount: e.amount, payTo: e.payTo })]);
  });

  it("dies_early: a challenge at first, 500 for good from a minute after its first request", async () => {
    const e = one(env.fleet, "dies_early");
    expect((await naked(e.url, "POST")).status).toBe(402);
    clock.advance(59_000);
    expect((await naked(e.url, "POST")).status).toBe(402);
    clock.advance(1_000);
    for (let i = 0; i < 3; i++, clock.advance(600_000)) expect((await naked(e.url, "POST")).status).toBe(500);
  });
});
