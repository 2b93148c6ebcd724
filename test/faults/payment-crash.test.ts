import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainReader } from "../../src/chain/chain-reader.js";
import { authorizationKey } from "../../src/services/payments/authorization-key.js";
import { reconcilePayments } from "../../src/services/payments/reconciler.js";
import { body } from "../helpers/http.js";
import { claimAsKilled } from "../helpers/killed-claim.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { signedPayment } from "../helpers/signed-payment.js";
import { plainRoute } from "../helpers/test-routes.js";

/**
 * Issue 21: a process killed between claim and settle leaves the claim behind, and the payer's
 * still-valid, never-settled authorization must not read "already used" forever.
 */
let svc: PaidService;
beforeAll(async () => {
  svc = await startPaidService({ routes: [plainRoute] });
});
afterAll(() => svc?.close());

const RECONCILE_GRACE_MS = 120_000;
const reconcile = () =>
  reconcilePayments({ db: svc.ctx.db.db, now: () => svc.ctx.clock.now(), chain: chainReader(svc.devnet.publicClient), graceMs: RECONCILE_GRACE_MS });
const pay = (header: string) =>
  fetch(`${svc.url}/api/v1/test-plain`, { method: "POST", headers: { "content-type": "application/json", "payment-signature": header }, body: "{}" });

describe("a process killed between claim and settle", () => {
  it("leaves a claim the reconciler releases from the chain, after which the same signature pays once", async () => {
    const id = "pay_crash_between_claim_001";
    const header = await signedPayment(svc, "/api/v1/test-plain", 0, id);
    const { payload } = await claimAsKilled(svc, header, "test-plain", id);
    const before = await svc.balanceOf(svc.payer(0));
    const stuck = await pay(header);
    expect(stuck.status).toBe(409);
    expect((await body(stuck)).error).toBe("payment_in_progress");

    // Within its grace a claim may still be a live request: left alone.
    expect(await reconcile()).toMatchObject({ released: 0 });
    svc.ctx.clock.advance(RECONCILE_GRACE_MS + 1_000);
    expect(await reconcile()).toMatchObject({ released: 1 });
    expect(await reconcile()).toMatchObject({ released: 0, settled: 0 });

    const paid = await pay(header);
    expect(paid.status).toBe(200);
    expect(paid.headers.get("payment-response")).not.toBeNull();
    expect(await svc.balanceOf(svc.payer(0))).toBe(before - 1000n);
    const row = await svc.ctx.db.db
      .selectFrom("payments")
      .select(["status", "tx_hash"])
      .where("authorization_key", "=", authorizationKey(payload))
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("settled");
    // Reconciling a settled payment changes nothing.
    expect(await reconcile()).toMatchObject({ settled: 0, released: 0 });
  });
});
