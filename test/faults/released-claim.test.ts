import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainReader } from "../../src/chain/chain-reader.js";
import { authorizationKey } from "../../src/services/payments/authorization-key.js";
import { reconcilePayments } from "../../src/services/payments/reconciler.js";
import { body } from "../helpers/http.js";
import { claimAsKilled } from "../helpers/killed-claim.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { withIdentifier } from "../helpers/signed-payment.js";
import { creditPaidRoute, plainRoute } from "../helpers/test-routes.js";

/**
 * Issue 34: after a crash the reconciler releases a claim whose authorization never reached the
 * chain. Anyone who saw its PAYMENT-SIGNATURE (a proxy, a log) must not spend it, and its own
 * payer's retry must still be served and settled once. The payment is signed by the real
 * @x402/fetch client on the devnet; its request "dies" with the process that claimed it.
 */
let svc: PaidService;
beforeAll(async () => {
  svc = await startPaidService({ routes: [plainRoute, creditPaidRoute] });
});
afterAll(() => svc?.close());

const GRACE_MS = 120_000;
const json = { "content-type": "application/json" };
const reconcile = () =>
  reconcilePayments({ db: svc.ctx.db.db, now: () => svc.ctx.clock.now(), chain: chainReader(svc.devnet.publicClient), graceMs: GRACE_MS });
const send = (path: string, header: string, payload = "{}") =>
  fetch(`${svc.url}${path}`, { method: "POST", headers: { ...json, "payment-signature": header }, body: payload });

/** @x402/fetch signs and sends; the process that claimed the payment dies: the payer sees its connection drop, the ledger keeps the claim. */
async function crashedPayment(account: number, paymentId?: string): Promise<string> {
  let sent: string | undefined;
  const dying: typeof fetch = async (input, init) => {
    const req = new Request(input as string | URL | Request, init);
    const header = req.headers.get("payment-signature");
    if (!header) return fetch(req);
    sent = header;
    throw new TypeError("fetch failed: socket hang up");
  };
  await expect(
    svc.payingFetch(account, { inner: dying, ...(paymentId ? { paymentId } : {}) })(`${svc.url}/api/v1/test-plain`, {
      method: "POST",
      headers: json,
      body: "{}",
    }),
  ).rejects.toThrow();
  await claimAsKilled(svc, sent!, "test-plain", paymentId ?? null);
  svc.ctx.clock.advance(GRACE_MS + 1_000);
  expect(await reconcile()).toMatchObject({ released: 1 });
  return sent!;
}

const statusOf = async (header: string) =>
  (
    await svc.ctx.db.db
      .selectFrom("payments")
      .select(["status", "route"])
      .where("authorization_key", "=", authorizationKey(decodePaymentSignatureHeader(header) as PaymentPayload))
      .executeTakeFirstOrThrow()
  ).status;

describe("a claim the reconciler released after a crash", () => {
  it("is spent by nobody who merely saw its header, and its payer's retry is served and settled once", async () => {
    const id = "pay_released_own_retry_0001";
    const header = await crashedPayment(0, id);
    const before = await svc.balanceOf(svc.payer(0));

    // Someone who saw the header: without the payment-identifier, with one of their own, or on another route of the same price.
    for (const [path, replay, payload] of [
      ["/api/v1/test-plain", withIdentifier(header, null), '{"mine":true}'],
      ["/api/v1/test-plain", withIdentifier(header, "pay_someone_else_000000001"), "{}"],
      ["/api/v1/test-credit-paid", header, "{}"],
    ] as const) {
      const res = await send(path, replay, payload);
      expect(res.status, `${path} ${payload}`).toBe(409);
      const b = await body(res);
      expect(b.error).toBe("payment_already_used");
      expect(b.message).toContain("released unsettled (nothing was charged)");
      expect(res.headers.get("payment-response")).toBeNull();
    }
    expect(await statusOf(header)).toBe("released");
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);

    // The payer's own retry: the same signed payment, payment-identifier and route.
    const paid = await send("/api/v1/test-plain", header);
    expect(paid.status).toBe(200);
    expect(await body(paid)).toEqual({ ok: true });
    expect(paid.headers.get("payment-response")).not.toBeNull();
    expect(await statusOf(header)).toBe("settled");
    expect(await svc.balanceOf(svc.payer(0))).toBe(before - 1000n);
    // Once settled, the same retry collects the same answer and is charged nothing more; others still get 409.
    expect((await send("/api/v1/test-plain", header)).status).toBe(200);
    expect((await send("/api/v1/test-plain", withIdentifier(header, null))).status).toBe(409);
    expect(await svc.balanceOf(svc.payer(0))).toBe(before - 1000n);
  });

  it("without a payment-identifier pays for nobody: the header is all there is, so the payer signs anew (nothing was charged)", async () => {
    const header = await crashedPayment(1);
    const before = await svc.balanceOf(svc.payer(1));
    const again = await send("/api/v1/test-plain", header);
    expect(again.status).toBe(409);
    expect((await body(again)).error).toBe("payment_already_used");
    expect(await statusOf(header)).toBe("released");
    // A new call of the same @x402/fetch signs a new authorization and is served.
    const fresh = await svc.payingFetch(1)(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: json, body: "{}" });
    expect(fresh.status).toBe(200);
    expect(await svc.balanceOf(svc.payer(1))).toBe(before - 1000n);
  });
});
