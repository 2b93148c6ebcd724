import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { decodeFunctionData, serializeSignature, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFacilitator, type FacilitatorClient } from "../../src/chain/facilitator.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { signedPayment, withIdentifier } from "../helpers/signed-payment.js";
import { plainRoute } from "../helpers/test-routes.js";

/**
 * Issue 21: an attacker holds only public data. Everything in a settled authorization, its
 * signature included, is in the transaction's calldata; the payment-identifier never is.
 */
let svc: PaidService;
let facilitatorCalls = 0;

beforeAll(async () => {
  svc = await startPaidService({
    routes: [...productRoutes, plainRoute],
    env: { ALLOW_PRIVATE_WEBHOOKS: "true" },
    facilitator: (devnet): FacilitatorClient => {
      const local = createLocalFacilitator(devnet);
      const counted = <T>(work: () => Promise<T>) => (facilitatorCalls++, work());
      return { ...local, verify: (p, r) => counted(() => local.verify(p, r)), settle: (p, r) => counted(() => local.settle(p, r)) };
    },
  });
});
afterAll(() => svc?.close());

const post = (path: string, header?: string, json: unknown = {}) =>
  fetch(`${svc.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(header ? { "payment-signature": header } : {}) },
    body: JSON.stringify(json),
  });
const payWith = (header: string, path = "/api/v1/credits", json: unknown = {}) => post(path, header, json);

/** The PAYMENT-SIGNATURE anyone can rebuild from a settlement transaction's calldata. */
async function rebuiltFromChain(transaction: Hex, path: string, signature?: Hex): Promise<string> {
  const tx = await svc.devnet.publicClient.getTransaction({ hash: transaction });
  const { args } = decodeFunctionData({ abi: testUsdcAbi, data: tx.input });
  const [from, to, value, validAfter, validBefore, nonce, ...sig] = args as unknown as [Hex, Hex, bigint, bigint, bigint, Hex, ...unknown[]];
  // transferWithAuthorization(..., bytes signature) or (..., uint8 v, bytes32 r, bytes32 s)
  const onChainSignature = sig.length === 1 ? (sig[0] as Hex) : serializeSignature({ v: BigInt(sig[0] as number), r: sig[1] as Hex, s: sig[2] as Hex });
  const required = decodePaymentRequiredHeader((await post(path)).headers.get("payment-required")!);
  const authorization = { from, to, value: String(value), validAfter: String(validAfter), validBefore: String(validBefore), nonce };
  return encodePaymentSignatureHeader({
    x402Version: 2,
    resource: required.resource,
    accepted: required.accepts[0]!,
    payload: { signature: signature ?? onChainSignature, authorization },
  });
}

describe("replays reveal nothing", () => {
  it("a payment rebuilt from the chain's public record gets no bundle, forged or with the real signature, and costs no facilitator call", async () => {
    const bought = await svc.payingFetch(0)(`${svc.url}/api/v1/credits`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(bought.status).toBe(200);
    const { creditId } = await body(bought);
    const { transaction } = decodePaymentResponseHeader(bought.headers.get("payment-response")!);
    const calls = facilitatorCalls;

    const forged = await payWith(await rebuiltFromChain(transaction as Hex, "/api/v1/credits", `0x${"11".repeat(65)}`));
    expect(forged.status).toBe(402);
    expect((await body(forged)).error).toMatch(/^invalid_payment: the signature is not the authorizer's/);

    const exact = await payWith(await rebuiltFromChain(transaction as Hex, "/api/v1/credits"));
    const text = await exact.text();
    expect(exact.status, text).toBe(409);
    expect(JSON.parse(text)).toMatchObject({ error: "credit_already_minted", credit: null });
    expect(text).not.toContain(creditId);
    expect(facilitatorCalls).toBe(calls);
    // The bundle still belongs to its buyer alone.
    expect((await body(await fetch(`${svc.url}/api/v1/credits/${creditId}`))).balance).toBe(1000);
  });

  it("gives the bundle back only to a retry with the original payment-identifier", async () => {
    const id = "pay_integrity_credit_0000001";
    const header = await signedPayment(svc, "/api/v1/credits", 1, id);
    const first = await payWith(header);
    expect(first.status).toBe(200);
    const minted = await body(first);

    const retry = await payWith(header);
    expect(retry.status).toBe(409);
    expect((await body(retry)).credit.creditId).toBe(minted.creditId);

    const stripped = await payWith(withIdentifier(header, null));
    expect(stripped.status).toBe(409);
    expect(await stripped.text()).not.toContain(minted.creditId);
    const guessed = await payWith(withIdentifier(header, "pay_integrity_guessed_00001"));
    expect(guessed.status).toBe(409);
    expect(await guessed.text()).not.toContain(minted.creditId);
  });

  it("refuses a different payment under a used payment-identifier with 409", async () => {
    const id = "pay_integrity_reused_id_00001";
    expect((await payWith(await signedPayment(svc, "/api/v1/test-plain", 2, id), "/api/v1/test-plain")).status).toBe(200);
    const before = await svc.balanceOf(svc.payer(2));
    const other = await payWith(await signedPayment(svc, "/api/v1/test-plain", 2, id), "/api/v1/test-plain");
    expect(other.status).toBe(409);
    expect((await body(other)).error).toBe("payment_identifier_conflict");
    expect(await svc.balanceOf(svc.payer(2))).toBe(before);
  });

  it("refuses a malformed payment-identifier with 400 before anything is verified", async () => {
    const header = await signedPayment(svc, "/api/v1/test-plain", 5);
    const payload = decodePaymentSignatureHeader(header);
    const calls = facilitatorCalls;
    for (const id of ["short", "has spaces in it, 20+", 42]) {
      const bad = encodePaymentSignatureHeader({
        ...payload,
        extensions: { ...payload.extensions, "payment-identifier": { info: { required: false, id } } },
      } as never);
      const res = await payWith(bad, "/api/v1/test-plain");
      expect(res.status).toBe(400);
      expect((await body(res)).error).toBe("invalid_payment_identifier");
    }
    expect(facilitatorCalls).toBe(calls);
  });

  it("returns a watch's secret to the identifier's holder only", async () => {
    const watch = { url: "https://wx.example/v1/forecast", webhookUrl: "http://127.0.0.1:9/hook" };
    const header = await signedPayment(svc, "/api/v1/watch", 3, "pay_integrity_watch_0000001");
    const first = await payWith(header, "/api/v1/watch", watch);
    expect(first.status).toBe(200);
    const created = await body(first);
    const again = await payWith(header, "/api/v1/watch", watch);
    expect(again.status).toBe(200);
    expect(await body(again)).toEqual(created);
    expect(again.headers.get("payment-response")).not.toBeNull();
    const stripped = await payWith(withIdentifier(header, null), "/api/v1/watch", watch);
    expect(stripped.status).toBe(409);
    expect(await stripped.text()).not.toContain(created.secret);
  });

  it("settles many concurrent retries of one payment once, and answers each retry with the same answer", async () => {
    const header = await signedPayment(svc, "/api/v1/test-plain", 4, "pay_integrity_concurrent_001");
    const before = await svc.balanceOf(svc.payer(4));
    const answers = await Promise.all(Array.from({ length: 8 }, () => payWith(header, "/api/v1/test-plain")));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    // The others saw it claimed (409, in progress) or settling (202, settlement_pending).
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect([409, 202]).toContain(r.status);
      expect((await body(r)).error).toBe(r.status === 409 ? "payment_in_progress" : "settlement_pending");
    }
    expect(await svc.balanceOf(svc.payer(4))).toBe(before - 1000n);
    const later = await payWith(header, "/api/v1/test-plain");
    expect(later.status).toBe(200);
    expect(await body(later)).toEqual({ ok: true });
    expect(await svc.balanceOf(svc.payer(4))).toBe(before - 1000n);
  });
});
