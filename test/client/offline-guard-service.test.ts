import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentRequired } from "@x402/core/types";
import { createLookoutClient, createOfflineGuard, type LookoutClient } from "@x402-lookout/client";
import type { VerdictEntry } from "@x402-lookout/contracts/snapshot/schemas";
import { MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { seedSkycastCatalog, SKYCAST } from "../helpers/skycast-catalog.js";
import { startLookout, type LookoutService } from "../discovery/lookout-service.js";

let svc: LookoutService;
let lookout: LookoutClient;
const PAYER = 2;
const PAY_TO = "0x000000000000000000000000000000000000dEaD";
const now = () => svc.ctx.clock.now().getTime();
/** The requirement an endpoint priced as its entry says would ask to be signed (payTo in lower case, as a 402 may write it). */
const requirementOf = (e: VerdictEntry, over: Record<string, unknown> = {}) =>
  ({
    scheme: "exact",
    network: e.network,
    asset: e.asset,
    payTo: e.pay_to?.toLowerCase(),
    amount: e.amount,
    maxTimeoutSeconds: 60,
    extra: {},
    ...over,
  }) as unknown as PaymentRequired["accepts"][number];

beforeAll(async () => {
  svc = await startLookout();
  await seedSkycastCatalog(svc.ctx, PAY_TO);
  // The fixtures' probes carry no challenge, so the entries take the catalog's terms: it names the asset.
  await svc.ctx.db.db.updateTable("listings").set({ asset: svc.devnet.usdcAddress }).execute();
  await recompute(svc.ctx);
  lookout = createLookoutClient({ baseUrl: svc.url, signer: privateKeyToAccount(svc.devnet.demoAccounts[PAYER]!.privateKey), now });
}, 180_000);
afterAll(() => svc?.close());

describe("the offline guard on the real service", () => {
  it("buys the snapshot and deltas through the typed client, decides as preflight does, and sends another quote to preflight", async () => {
    const before = await svc.balanceOf(svc.payer(PAYER));
    const guard = createOfflineGuard({ lookout, now });
    expect(await guard.ready).toBe(true);
    expect(guard.size).toBe(3);
    const judged = async (url: string) => {
      const entry = guard.decide(url, "POST")!.entry;
      const report = await lookout.preflight({ url });
      const local = guard.decide(`${url}?units=metric`, "post", requirementOf(entry));
      expect(local, url).not.toBeNull();
      expect(local!.decision, url).toBe(report.ok && !["skip", "use_alternatives"].includes(report.recommended_action) ? "allow" : "block");
      return { entry, local: local! };
    };
    expect((await judged(SKYCAST.forecast)).local.decision).toBe("allow");
    expect((await judged(SKYCAST.broken)).local).toMatchObject({ decision: "block", reasons: expect.arrayContaining(["not_ok"]) });

    // A verdict that changes on the service reaches the store through the deltas.
    const seq = guard.seq!;
    svc.ctx.clock.set(new Date());
    const id = Number((await svc.ctx.db.db.selectFrom("listings").select("id").where("url", "=", SKYCAST.forecast).executeTakeFirstOrThrow()).id);
    await seedProbes(
      svc.ctx,
      id,
      series(30 * MINUTE, 5 * MINUTE, () => ({ healthy: false, status: 500 })),
    );
    await recompute(svc.ctx);
    await guard.refresh();
    expect(guard.seq).toBeGreaterThan(seq);
    const changed = await judged(SKYCAST.forecast);
    expect(changed.entry.seq).toBeGreaterThan(seq);

    const other = requirementOf(changed.entry, { amount: "999999" });
    expect(guard.decide(SKYCAST.forecast, "POST", other)).toBeNull();
    const asked = await guard.check(SKYCAST.forecast, "POST", {
      x402Version: 2,
      resource: { url: SKYCAST.forecast },
      accepts: [other],
    } as unknown as PaymentRequired);
    expect(asked.snapshotEntry).toBeUndefined();
    expect(asked.report!.verified.requirement_digest).toBe(asked.requirementDigest);
    // 0.25 for the snapshot, 0.001 each for one delta and the four preflights.
    expect(before - (await svc.balanceOf(svc.payer(PAYER)))).toBe(255_000n);
    guard.stop();
  }, 60_000);
});
