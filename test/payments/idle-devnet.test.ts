import axios from "axios";
import { wrapAxiosWithPayment, x402Client as axiosX402Client } from "@x402/axios";
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { pastWindowSigner, sdkV1Signer, type ExactSigner } from "../helpers/past-window-signer.js";

/**
 * Clients that sign `validAfter = now - 600` fail once the devnet's newest block is older than
 * that: the token's simulation runs at that block's time. 15 idle minutes are scaled down here
 * to 8 s against a 4 s window, on a devnet with 0.5 s empty blocks and on one whose blocks come
 * only with transactions (an hour apart: the devnet as it was).
 */
const IDLE_MS = 8_000;
const TOLERANCE_S = 4;
let ticking: PaidService;
let still: PaidService;

beforeAll(async () => {
  [ticking, still] = await Promise.all([
    startPaidService({ routes: productRoutes, blockTimeSeconds: 0.5 }),
    startPaidService({ routes: productRoutes, blockTimeSeconds: 3600 }),
  ]);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
}, 90_000);
afterAll(() => Promise.all([ticking?.close(), still?.close()]));

const post = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://idle.example/v1/x" }) };
const blockAge = async (svc: PaidService) => Date.now() / 1000 - Number((await svc.devnet.publicClient.getBlock()).timestamp);
const payer = (svc: PaidService, i: number) => privateKeyToAccount(svc.devnet.demoAccounts[i]!.privateKey);
const viaFetch = (svc: PaidService, signer: ExactSigner) => wrapFetchWithPayment(fetch, new x402Client().register(svc.devnet.network, signer as never));

describe("a devnet idle for longer than a client's validity window", () => {
  it("keeps its clock within a block interval of wall time (and stands still without interval blocks)", async () => {
    expect(await blockAge(ticking)).toBeLessThan(2);
    expect(await blockAge(still)).toBeGreaterThan(IDLE_MS / 1000 - 1);
  });

  it("settles a payment whose window opened seconds ago, where the still chain refuses it naming the revert", async () => {
    const before = await ticking.balanceOf(ticking.payer(3));
    const paid = await viaFetch(ticking, pastWindowSigner(payer(ticking, 3), TOLERANCE_S, ticking.devnet.chainId))(`${ticking.url}/api/v1/preflight`, post);
    expect(paid.status).toBe(200);
    expect(await ticking.balanceOf(ticking.payer(3))).toBe(before - 1000n);

    const refused = await viaFetch(still, pastWindowSigner(payer(still, 3), TOLERANCE_S, still.devnet.chainId))(`${still.url}/api/v1/preflight`, post);
    expect(refused.status).toBe(402);
    expect((await body(refused)).error).toBe("invalid_payment: invalid_exact_evm_transaction_simulation_failed: USDC: authorization is not yet valid");
    expect(await still.balanceOf(still.payer(3))).toBe(before);
  });

  it("settles with @x402/axios 2.11 and the SDK's now - 600 signer after the idle", async () => {
    // Records the window of the authorization it sends: the SDK's, not one made for this test.
    const sdk = sdkV1Signer(payer(ticking, 4));
    const windows: number[] = [];
    const signer: ExactSigner = {
      ...sdk,
      createPaymentPayload: async (version, req) => {
        const signed = await sdk.createPaymentPayload(version, req);
        windows.push(Number((signed.payload.authorization as { validAfter: string }).validAfter));
        return signed;
      },
    };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const client = wrapAxiosWithPayment(axios.create(), new axiosX402Client().register(ticking.devnet.network, signer as never));
    const res = await client.post(`${ticking.url}/api/v1/preflight`, { url: "https://idle.example/v1/x" });
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers["payment-response"] as string)).toMatchObject({ success: true, payer: ticking.payer(4) });
    expect(windows).toHaveLength(1);
    expect(windows[0]).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) - 600);
  });
});
