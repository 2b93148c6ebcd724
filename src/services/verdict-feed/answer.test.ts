import { describe, expect, it } from "vitest";
import { entryOf } from "./answer.js";

const terms = { pay_to: "0xaa", asset: "0xbb", network: "eip155:84532", amount: "2000", price_usdc: "0.002" };
const row = (feed: Record<string, unknown>) => ({ seq: 7, url: "https://a.example/x", method: "GET", feed: { ...terms, ...feed } as never });

/** An entry stored before decision 0045 held every code in warnings: answered split, until the next pass rewrites it. */
describe("a snapshot entry's codes", () => {
  it("answers a current entry as stored", () => {
    const e = entryOf(row({ ok: false, action: "skip", warnings: ["slow"], reason_codes: ["slow", "cloaking"] }));
    expect(e).toMatchObject({ warnings: ["slow"], reason_codes: ["slow", "cloaking"], seq: 7 });
  });

  it("splits an entry stored before reason_codes: the spec's codes in warnings, every code in reason_codes", () => {
    const e = entryOf(row({ ok: false, action: "skip", warnings: ["slow", "cloaking", "failing"] }));
    expect(e).toMatchObject({ ok: false, action: "skip", warnings: ["slow"], reason_codes: ["slow", "cloaking", "failing"] });
    // The wire's key order (the client hashes entries as parsed): reason_codes right after warnings.
    expect(Object.keys(e)).toEqual(["url", "method", "ok", "action", "warnings", "reason_codes", "pay_to", "asset", "network", "amount", "price_usdc", "seq"]);
  });
});
