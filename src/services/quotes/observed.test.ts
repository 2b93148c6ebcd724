import { describe, expect, it } from "vitest";
import { readPaymentRequired, requirementDigest } from "@x402-lookout/contracts/quote";
import { checkQuote } from "./check.js";
import { observedQuote, type QuoteSpan } from "./observed.js";
import { HOUR } from "../signals/constants.js";
import { USDC_BASE_SEPOLIA } from "../../../test/probes/helpers.js";

const now = new Date("2026-11-20T12:00:00Z");
const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
const A = "0x" + "a".repeat(40);
const span = (profile: string, amount: string, from: number, to: number, payTo = A): QuoteSpan => ({
  profile,
  first_seen_at: at(from),
  last_seen_at: at(to),
  network: "eip155:84532",
  asset: USDC_BASE_SEPOLIA,
  pay_to: payTo,
  amount,
  scheme: "exact",
  resource_url: "https://api.example/x",
  malformed: null,
});

describe("the quote evidence of a listing's spans", () => {
  it("calls profiles that were never shown a common offer while both were probed cloaking", () => {
    const q = observedQuote([span("fetch", "1000", 10, 0), span("axios", "5000000000", 8, 2)], now)!;
    expect(q.profilesDisagree).toBe(true);
  });

  it("does not call an honest price change cloaking: every profile saw the old and the new price", () => {
    const q = observedQuote([span("fetch", "1000", 10, 5), span("fetch", "2000", 4, 0), span("axios", "1000", 9, 6), span("axios", "2000", 3, 1)], now)!;
    expect(q.profilesDisagree).toBe(false);
    expect(q).toMatchObject({ lowestAmount24h: "1000", highestAmount7d: "2000", live: { amount: "2000" } });
  });

  it("calls vantages shown different payees under the same profile cloaking (decision 0048)", () => {
    const B = "0x" + "b".repeat(40);
    const q = observedQuote(
      [
        { ...span("fetch", "1000", 10, 0), vantage: "a" },
        { ...span("fetch", "1000", 8, 2, B), vantage: "b" },
      ],
      now,
    )!;
    expect(q.profilesDisagree).toBe(true);
    // The same payee from both: no cloaking on either axis.
    expect(
      observedQuote(
        [
          { ...span("fetch", "1000", 10, 0), vantage: "a" },
          { ...span("fetch", "1000", 8, 2), vantage: "b" },
        ],
        now,
      )!.profilesDisagree,
    ).toBe(false);
  });

  it("does not compare profiles whose spans never overlapped", () => {
    expect(observedQuote([span("fetch", "1000", 10, 6), span("axios", "2000", 5, 0)], now)!.profilesDisagree).toBe(false);
  });

  it("counts distinct payees of the week, case-insensitively for EVM addresses", () => {
    const q = observedQuote([span("fetch", "1000", 100, 90, A), span("fetch", "1000", 80, 0, A.toUpperCase().replace("0X", "0x"))], now)!;
    expect(q.payTos7d).toBe(1);
    expect(observedQuote([span("fetch", "1000", 200, 190, "0x" + "b".repeat(40)), span("fetch", "1000", 5, 0)], now)!.payTos7d).toBe(1);
    expect(observedQuote([span("fetch", "1000", 100, 90, "0x" + "b".repeat(40)), span("fetch", "1000", 5, 0)], now)!.payTos7d).toBe(2);
  });

  it("is null without a challenge in 7 days", () => {
    expect(observedQuote([span("fetch", "1000", 200, 190)], now)).toBeNull();
  });
});

describe("an agent's quote against the listing and the history", () => {
  const listed = { network: "eip155:84532", asset: USDC_BASE_SEPOLIA, payTo: A, amount: "1000", url: "https://api.example/x" };
  const observed = observedQuote([span("fetch", "1000", 10, 0)], now);
  const quote = (over: Record<string, unknown>) =>
    readPaymentRequired({
      x402Version: 2,
      resource: { url: "https://api.example/x" },
      accepts: [{ scheme: "exact", network: "eip155:84532", asset: USDC_BASE_SEPOLIA, payTo: A, amount: "1000", maxTimeoutSeconds: 60, ...over }],
    })!;

  it("matches every term of an honest quote and binds its digest", async () => {
    const c = await checkQuote(quote({}), listed, observed);
    expect(c.warnings).toEqual([]);
    expect(c.terms.pay_to).toMatchObject({ matches_catalog: true, matches_observed: true });
    expect(c.requirement_digest).toBe(await requirementDigest(quote({}).accepts[0]!));
  });

  it("flags another payee, asset and network as critical codes and a price above the observed as a switch", async () => {
    expect((await checkQuote(quote({ payTo: "0x" + "b".repeat(40) }), listed, observed)).warnings).toContain("pay_to_mismatch");
    expect((await checkQuote(quote({ asset: "0x" + "c".repeat(40) }), listed, observed)).warnings).toContain("asset_not_usdc");
    expect((await checkQuote(quote({ network: "eip155:8453" }), listed, observed)).warnings).toEqual(expect.arrayContaining(["network_mismatch"]));
    const dear = await checkQuote(quote({ amount: "900000" }), listed, observed);
    expect(dear.warnings).toEqual(["price_switch", "price_mismatch"]);
    expect(dear.terms.amount).toMatchObject({ value: "900000", catalog: "1000", observed: ["1000"], matches_catalog: false });
  });

  it("reads the base64 header form and v1 bodies alike", () => {
    const header = btoa(JSON.stringify({ x402Version: 2, resource: { url: "u" }, accepts: [{ scheme: "exact", network: "n", amount: "7", payTo: A }] }));
    expect(readPaymentRequired(header)!.accepts[0]).toMatchObject({ amount: "7", resourceUrl: "u", payTo: A });
    const v1 = readPaymentRequired({
      x402Version: 1,
      accepts: [{ scheme: "exact", network: "base", maxAmountRequired: "5", resource: "r", maxTimeoutSeconds: 9 }],
    });
    expect(v1!.accepts[0]).toMatchObject({ x402Version: 1, amount: "5", resourceUrl: "r", maxTimeoutSeconds: 9 });
    expect(readPaymentRequired("not base64 json")).toBeNull();
  });
});
