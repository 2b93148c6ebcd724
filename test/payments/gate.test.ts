import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { creditPaidRoute, failingPaidRoute, plainRoute, preparedReads, preparedRoute } from "../helpers/test-routes.js";

let svc: PaidService;

beforeAll(async () => {
  svc = await startPaidService({ routes: [...productRoutes, plainRoute, failingPaidRoute, creditPaidRoute, preparedRoute] });
});
afterAll(() => svc?.close());

const json = { "content-type": "application/json" };

const recordingFetch = (accountIndex = 0, paymentId?: string) => svc.recordingFetch(accountIndex, paymentId);

describe("402 challenge", () => {
  it("puts the same PaymentRequired in the body and the header, with www-authenticate", async () => {
    const res = await fetch(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(402);
    expect(res.headers.get("www-authenticate")).toBe("x402");
    const fromBody = await body(res);
    const fromHeader = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
    expect(fromBody).toEqual(fromHeader);
    expect(fromBody).toMatchObject({
      x402Version: 2,
      resource: { url: `${svc.url}/api/v1/credits`, mimeType: "application/json" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          asset: svc.devnet.usdcAddress,
          amount: "500000",
          payTo: svc.devnet.payTo,
          maxTimeoutSeconds: 300,
          extra: { name: "USDC", version: "2" },
        },
      ],
    });
    expect(typeof fromBody.error).toBe("string");
  });

  it("answers an unpaid request with 402 whatever its body, naming what a paid one would be refused for", async () => {
    for (const bad of ['{"fail":"yes"}', "not json"]) {
      const res = await fetch(`${svc.url}/api/v1/test-credit-paid`, { method: "POST", headers: json, body: bad });
      expect(res.status).toBe(402);
      expect((await body(res)).error).toMatch(/^(bad_request|malformed_json): .*answered 400 and charged nothing/);
    }
    // A paid request (here: a credit id) with the same input is refused with 400 before anything is spent.
    const paid = await fetch(`${svc.url}/api/v1/test-credit-paid`, {
      method: "POST",
      headers: { ...json, "x-credit-id": "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10" },
      body: '{"fail":"yes"}',
    });
    expect(paid.status).toBe(400);
  });

  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
  const accepted = () => svc.gate.paymentRequired(svc.routes.find((r) => r.id === "test-plain") as never).accepts[0];
  it.each([
    ["garbage header", () => "not-base64!!"],
    ["wrong version", () => b64({ x402Version: 1, payload: {} })],
    // Found by the fuzz suite: these were a 500 (null) and a 503 "facilitator unavailable".
    ["header that decodes to null", () => b64(null)],
    ["payload without an authorization", () => b64({ x402Version: 2, accepted: accepted(), payload: null })],
    [
      "authorization of the wrong form",
      () => b64({ x402Version: 2, accepted: accepted(), payload: { signature: "0xzz", authorization: { from: 5, value: "{{7*7}}" } } }),
    ],
  ])("refuses a %s with 402 and runs nothing", async (_n, header) => {
    const res = await fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: { ...json, "payment-signature": header() }, body: "{}" });
    expect(res.status).toBe(402);
    expect((await body(res)).error).toMatch(/^invalid_payment/);
  });
});

describe("paid flow on the devnet", () => {
  it("settles exactly the price on chain and returns the receipt", async () => {
    const payer = svc.payer(0);
    const [payerBefore, payToBefore] = await Promise.all([svc.balanceOf(payer), svc.balanceOf(svc.devnet.payTo)]);
    const res = await svc.payingFetch(0)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(200);
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: "eip155:84532", payer });
    expect(await svc.balanceOf(payer)).toBe(payerBefore - 500_000n);
    expect(await svc.balanceOf(svc.devnet.payTo)).toBe(payToBefore + 500_000n);

    const credit = await body(res);
    expect(credit).toMatchObject({ balance: 1000, initialBalance: 1000, paidAmount: "0.5", payerAddress: payer });
    const status = await body(await fetch(`${svc.url}/api/v1/credits/${credit.creditId}`));
    expect(status).toMatchObject({ creditId: credit.creditId, used: 0, expired: false, paymentTx: receipt.transaction, paymentNetwork: "eip155:84532" });
    // The status carries the same usage hint as the issued bundle (/spec#credits-status).
    expect(status.usage).toEqual(credit.usage);
    expect(status.usage).toMatchObject({
      header: `X-Credit-Id: ${credit.creditId}`,
      statusUrl: expect.stringMatching(new RegExp(`/api/v1/credits/${credit.creditId}$`)),
    });

    const row = await svc.ctx.db.db.selectFrom("payments").selectAll().where("tx_hash", "=", receipt.transaction).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "settled", route: "credits", payer, amount_atomic: "500000", network: "eip155:84532" });
  });

  it("answers 409 when a payment is reused to mint again, with the bundle only for a retry that carries the payment-identifier", async () => {
    const rec = recordingFetch(1, "pay_gate_test_mint_again_0001");
    const first = await rec.fetch(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" });
    expect(first.status).toBe(200);
    const minted = await body(first);
    const again = await fetch(`${svc.url}/api/v1/credits`, { method: "POST", headers: { ...json, "payment-signature": rec.sent.at(-1)! }, body: "{}" });
    expect(again.status).toBe(409);
    const conflict = await body(again);
    expect(conflict.error).toBe("credit_already_minted");
    expect(conflict.credit.creditId).toBe(minted.creditId);
  });

  it("refuses a replayed payment on other routes with 409 and no answer", async () => {
    const rec = recordingFetch(2);
    expect((await rec.fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: json, body: "{}" })).status).toBe(200);
    const replay = await fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: { ...json, "payment-signature": rec.sent.at(-1)! }, body: "{}" });
    expect(replay.status).toBe(409);
    const answer = await body(replay);
    expect(answer.error).toBe("payment_already_used");
    expect(answer.ok).toBeUndefined();
  });

  it("releases a claim the database recorded but never confirmed, so the same authorization pays for its payer's retry (same payment-identifier)", async () => {
    const ledger = svc.ctx.services.payments;
    const claim = ledger.claim;
    // The claim commits, then the connection drops before its answer arrives.
    ledger.claim = async (input) => {
      ledger.claim = claim;
      await claim(input);
      throw new Error("Connection terminated unexpectedly");
    };
    const rec = recordingFetch(6, "pay_unconfirmed_claim_0001");
    const payer = svc.payer(6);
    const before = await svc.balanceOf(payer);
    const failed = await rec.fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: json, body: "{}" });
    expect(failed.status).toBe(503);
    expect(failed.headers.get("payment-response")).toBeNull();
    expect(await svc.balanceOf(payer)).toBe(before);
    const retry = await fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: { ...json, "payment-signature": rec.sent.at(-1)! }, body: "{}" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("payment-response")).not.toBeNull();
  });

  it("refuses an underpaid authorization and charges nothing", async () => {
    const rec = recordingFetch(3);
    await rec.fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: json, body: "{}" });
    // Re-sign nothing: present the cheap route's payment to the 0.50 route.
    const payload = JSON.parse(Buffer.from(rec.sent.at(-1)!, "base64").toString());
    const res = await fetch(`${svc.url}/api/v1/credits`, {
      method: "POST",
      headers: { ...json, "payment-signature": encodePaymentSignatureHeader(payload) },
      body: "{}",
    });
    expect(res.status).toBe(402);
    expect((await body(res)).error).toMatch(/does not match|already used/);
  });

  it("settles nothing when the handler fails: 503 with payment_settled false", async () => {
    const payer = svc.payer(4);
    const before = await svc.balanceOf(payer);
    const res = await svc.payingFetch(4)(`${svc.url}/api/v1/test-failing`, { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(503);
    expect(res.headers.get("payment-response")).toBeNull();
    expect(await body(res)).toMatchObject({ error: "service_unavailable", payment_settled: false });
    expect(await svc.balanceOf(payer)).toBe(before);
    const row = await svc.ctx.db.db.selectFrom("payments").select(["status"]).where("route", "=", "test-failing").executeTakeFirstOrThrow();
    expect(row.status).toBe("released");
  });
});

describe("credits", () => {
  it("pays a credit-accepting route from the bundle, and falls through to 402 when unusable", async () => {
    const credit = await body(await svc.payingFetch(5)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" }));
    const viaCredit = await fetch(`${svc.url}/api/v1/test-credit-paid`, { method: "POST", headers: { ...json, "x-credit-id": credit.creditId }, body: "{}" });
    expect(viaCredit.status).toBe(200);
    expect(await body(viaCredit)).toEqual({ paidWith: "credit" });
    expect(viaCredit.headers.get("x-credit-balance")).toBe("999");
    expect(viaCredit.headers.get("x-credit-expires-at")).toBe(credit.expiresAt);

    const failed = await fetch(`${svc.url}/api/v1/test-credit-paid`, {
      method: "POST",
      headers: { ...json, "x-credit-id": credit.creditId },
      body: '{"fail":true}',
    });
    expect(failed.status).toBe(503);
    expect((await body(await fetch(`${svc.url}/api/v1/credits/${credit.creditId}`))).balance).toBe(999);

    await svc.ctx.db.db.updateTable("credits").set({ balance: 0 }).where("id", "=", credit.creditId).execute();
    const exhausted = await fetch(`${svc.url}/api/v1/test-credit-paid`, { method: "POST", headers: { ...json, "x-credit-id": credit.creditId }, body: "{}" });
    expect(exhausted.status).toBe(402);

    const paid = await svc.payingFetch(5)(`${svc.url}/api/v1/test-credit-paid`, {
      method: "POST",
      headers: { ...json, "x-credit-id": credit.creditId },
      body: "{}",
    });
    expect(paid.status).toBe(200);
    expect(await body(paid)).toEqual({ paidWith: "x402" });
  });

  it("never spends below zero under 200 concurrent spends", async () => {
    const credit = await body(await svc.payingFetch(6)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" }));
    await svc.ctx.db.db.updateTable("credits").set({ balance: 150 }).where("id", "=", credit.creditId).execute();
    const results = await Promise.all(Array.from({ length: 200 }, () => svc.ctx.services.credits.spend(credit.creditId)));
    expect(results.filter(Boolean)).toHaveLength(150);
    const balances = results
      .filter(Boolean)
      .map((r) => r!.balance)
      .sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect((await body(await fetch(`${svc.url}/api/v1/credits/${credit.creditId}`))).balance).toBe(0);
  });

  it("marks expired bundles and stops spending them", async () => {
    const credit = await body(await svc.payingFetch(7)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" }));
    svc.ctx.clock.advance(91 * 86_400_000);
    try {
      const status = await body(await fetch(`${svc.url}/api/v1/credits/${credit.creditId}`));
      expect(status.expired).toBe(true);
      expect(await svc.ctx.services.credits.spend(credit.creditId)).toBeUndefined();
    } finally {
      svc.ctx.clock.advance(-91 * 86_400_000);
    }
  });

  it("answers the same 404 for malformed and unknown ids", async () => {
    const a = await fetch(`${svc.url}/api/v1/credits/not-a-uuid`);
    const b = await fetch(`${svc.url}/api/v1/credits/6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10`);
    expect(a.status).toBe(404);
    expect(b.status).toBe(404);
    const [ja, jb] = [await body(a), await body(b)];
    expect({ ...ja, request_id: "" }).toEqual({ ...jb, request_id: "" });
  });
});

describe("reads prepared beside the credit spend", () => {
  const call = (tag: string, headers: Record<string, string> = {}, extra: object = {}) =>
    fetch(`${svc.url}/api/v1/test-prepared`, { method: "POST", headers: { ...json, ...headers }, body: JSON.stringify({ tag, ...extra }) });

  it("starts no read for a request that offers no credit, and none for invalid input", async () => {
    expect((await call("unpaid")).status).toBe(402);
    expect(
      (
        await fetch(`${svc.url}/api/v1/test-prepared`, {
          method: "POST",
          headers: { ...json, "x-credit-id": "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10" },
          body: "{}",
        })
      ).status,
    ).toBe(400);
    expect(preparedReads).not.toContain("unpaid");
    expect(preparedReads).toHaveLength(0);
  });

  it("hands the read to the handler of a credit-paid call, and drops it (even a failed one) when the payment fails", async () => {
    const credit = await body(await svc.payingFetch(8)(`${svc.url}/api/v1/credits`, { method: "POST", headers: json, body: "{}" }));
    const paid = await call("paid", { "x-credit-id": credit.creditId });
    expect(paid.status).toBe(200);
    expect(await body(paid)).toEqual({ read: "read:paid", paidWith: "credit" });

    // An unknown bundle falls through to 402: the read ran and failed, and nothing notices.
    const unknown = await call("unknown", { "x-credit-id": "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10" }, { failRead: true });
    expect(unknown.status).toBe(402);
    expect(preparedReads).toEqual(["paid", "unknown"]);

    // An x402 payment starts nothing early: the handler reads after the claim is recorded.
    const viaX402 = await svc.payingFetch(8)(`${svc.url}/api/v1/test-prepared`, { method: "POST", headers: json, body: JSON.stringify({ tag: "x402" }) });
    expect(viaX402.status).toBe(200);
    expect(await body(viaX402)).toEqual({ read: "not started", paidWith: "x402" });
    expect(preparedReads).toEqual(["paid", "unknown"]);

    // A read that fails for a paid call fails the answer, and the call is given back.
    const failed = await call("failed", { "x-credit-id": credit.creditId }, { failRead: true });
    expect(failed.status).toBe(503);
    expect((await body(await fetch(`${svc.url}/api/v1/credits/${credit.creditId}`))).balance).toBe(999);
  });
});

describe("reference pages", () => {
  it("answers GET on a paid route with an HTML page generated from the registry", async () => {
    const res = await fetch(`${svc.url}/api/v1/credits`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Prepaid credit bundle");
    expect(html).toContain("0.50 USDC (challenge amount &quot;500000&quot;)");
    expect(html).toContain("<td>409</td>");
    expect(html).toContain("<td>402</td>");
    expect(html).toContain(svc.devnet.payTo);
    expect(html).toContain("&quot;maxTimeoutSeconds&quot;: 300");
    expect(html).toContain("creditId");
  });

  it("lists every route on the landing page", async () => {
    const html = await (await fetch(`${svc.url}/`)).text();
    for (const path of ["/api/v1/credits", "/api/v1/test-plain"]) expect(html).toContain(`href="${path}"`);
    expect(html).toContain('href="/spec#credits-status"');
  });
});
