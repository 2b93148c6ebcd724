import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "./catalog-fixtures.js";
import type { TestContext } from "./context.js";

export const SKYCAST = {
  forecast: "https://wx.example/v1/forecast",
  hourly: "https://wx.example/v1/hourly",
  /** Dead: erroring every 10 minutes for a week. */
  broken: "https://wx.example/v2/broken",
  /** Covers forecast and hourly: certifiable. */
  healthyPattern: "https://wx.example/v1/*",
  /** Covers broken too: not certifiable. */
  wholeHost: "https://wx.example/*",
} as const;

/**
 * A small catalog with a week of evidence, on the context's clock set to now (payments are
 * signed in real time): two healthy Skycast endpoints and a dead one of the same service, all
 * paid to `payTo` (a certificate for them is sold only to whoever pays from or signs for it).
 */
export async function seedSkycastCatalog(ctx: TestContext, payTo: string | null = null): Promise<void> {
  ctx.clock.set(new Date());
  for (const url of [SKYCAST.forecast, SKYCAST.hourly]) {
    const id = await seedListing(ctx, { url, service: "Skycast", provider: "0xsky", payTo, price: "0.002" });
    await seedProbes(
      ctx,
      id,
      series(7 * DAY, HOUR, () => ({ price: "0.002", latency: 150 })),
    );
  }
  const broken = await seedListing(ctx, { url: SKYCAST.broken, service: "Skycast", provider: "0xsky", payTo, price: "0.002" });
  await seedProbes(
    ctx,
    broken,
    series(7 * DAY, 10 * MINUTE, () => ({ healthy: false, status: 500 })),
  );
  await recompute(ctx);
}
