import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recomputeSnapshots } from "../../src/services/evidence/index.js";
import { watchedVerdicts } from "../../src/services/watch/watched-verdicts.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { watchOn } from "../watch/helpers/watch-fixtures.js";
import { startReceiver, type Receiver } from "../watch/helpers/receiver.js";

let ctx: TestContext;
let rx: Receiver;
const URL_NEW = "https://fresh.example/api/quote";

beforeAll(async () => {
  ctx = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: "true" });
  rx = await startReceiver();
});

afterAll(async () => {
  await rx.close();
  await ctx.close();
});

/** What each product says of one URL at one moment. */
async function products(url: string) {
  const { reports } = ctx.services;
  const [preflight, forensics, batch, watched] = await Promise.all([
    reports.preflight(url),
    reports.forensics(url),
    reports.batch([url]),
    watchedVerdicts(ctx.db.db, ctx.clock.now()),
  ]);
  return { preflight, forensics, batch: batch.results[0]!, watch: watched.get(url)! };
}

describe("one verdict behind every product", () => {
  it("preflight, batch, forensics and watches all read the stored verdict, also where the request-time rules would now differ", async () => {
    // A provider one minute short of a day old: new_provider, until the pipeline judges it again.
    const id = await seedListing(ctx, {
      url: URL_NEW,
      service: "Fresh",
      price: "0.01",
      serviceFirstSeenAt: new Date(ctx.clock.now().getTime() - DAY + MINUTE),
      // No paid call reported anywhere: calls would be a track record (issue 35 item 8).
      l30dCalls: 0,
      lastCalledAt: null,
    });
    await seedProbes(ctx, id, series(HOUR, 10 * MINUTE));
    await recompute(ctx);
    await watchOn(ctx, rx, "/fresh", URL_NEW, { signals: ["dead"] });

    ctx.clock.advance(2 * MINUTE);
    const before = await products(URL_NEW);
    // Forensics adds the catalog-level high_concentration (one provider is all of this catalog): informational only.
    for (const v of [before.preflight, before.forensics, before.batch]) {
      expect(v.warnings).toContain("new_provider");
      expect(v.recommended_action).toBe("investigate");
    }
    expect(before.watch.state("new_provider")).toBe("fired");

    // The next full pass judges the provider a day old: every product follows together.
    await recompute(ctx);
    const after = await products(URL_NEW);
    for (const v of [after.preflight, after.forensics, after.batch]) {
      expect(v.warnings).not.toContain("new_provider");
      expect(v.recommended_action).toBe("pay");
    }
    expect(after.watch.state("new_provider")).toBe("cleared");
  });

  it("a listing the pipeline has not judged yet is judged on its evidence at once", async () => {
    const url = "https://unjudged.example/api";
    const id = await seedListing(ctx, { url, service: "Unjudged", price: "0.01" });
    await seedProbes(
      ctx,
      id,
      series(30 * MINUTE, 10 * MINUTE, () => ({ healthy: false })),
    );
    await recomputeSnapshots(ctx, [id]);
    const { preflight, forensics } = await products(url);
    expect(preflight).toMatchObject({ ok: false, warnings: ["dead"], recommended_action: "use_alternatives" });
    expect(forensics.recommended_action).toBe("use_alternatives");
  });
});
