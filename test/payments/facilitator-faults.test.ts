import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFacilitator, createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startHttpFacilitator } from "../helpers/http-facilitator.js";
import { body } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

let svc: PaidService;
let remote: Awaited<ReturnType<typeof startHttpFacilitator>>;

beforeAll(async () => {
  svc = await startPaidService({
    routes: productRoutes,
    facilitatorTimeoutMs: 1500,
    facilitator: async (devnet) => {
      remote = await startHttpFacilitator(createLocalFacilitator(devnet));
      return createRemoteFacilitator(remote.url);
    },
  });
});
afterAll(async () => {
  await svc?.close();
  await remote?.close();
});

const buy = () => svc.payingFetch(0)(`${svc.url}/api/v1/credits`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });

describe("facilitator faults", () => {
  it("pays normally through a facilitator over HTTP", async () => {
    remote.setMode("ok");
    expect((await buy()).status).toBe(200);
  });

  it.each(["hang", "error"] as const)("answers 503 unsettled when the facilitator %s", async (mode) => {
    remote.setMode(mode);
    const before = await svc.balanceOf(svc.payer(0));
    const res = await buy();
    expect(res.status).toBe(503);
    expect(await body(res)).toMatchObject({ error: "facilitator_unavailable", payment_settled: false });
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
  });

  it("withholds the answer and records it when settlement fails after the handler ran", async () => {
    remote.setMode("settle-error");
    const before = await svc.balanceOf(svc.payer(0));
    const res = await buy();
    expect(res.status).toBe(503);
    const answer = await body(res);
    expect(answer.payment_settled).toBe(false);
    expect(answer.creditId).toBeUndefined();
    expect(await svc.balanceOf(svc.payer(0))).toBe(before);
    const failed = await svc.ctx.db.db.selectFrom("payments").select(["status", "error"]).where("status", "=", "settle_failed").execute();
    expect(failed.length).toBeGreaterThan(0);
    // The bundle minted for the unsettled payment cannot be used or read.
    const orphans = await svc.ctx.db.db.selectFrom("credits").innerJoin("payments", "payments.id", "credits.payment_id").select("credits.id").where("payments.status", "=", "settle_failed").execute();
    for (const o of orphans) expect(await svc.ctx.services.credits.spend(o.id)).toBeUndefined();
  });
});
