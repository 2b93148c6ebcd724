import { createLookoutClient } from "@x402-lookout/client";
import { percentiles, type Percentiles } from "./percentiles.js";

/** The catalog the baseline service is seeded with: small, so a first run seeds it in seconds. */
const BASELINE_LISTINGS = process.env.BENCH_OFFLINE_BASELINE_LISTINGS ?? "1000";

/**
 * The baseline: one credit-paid preflight, the call guardFetch makes for an endpoint the offline
 * guard cannot decide, asked one at a time through the typed client (its signed verdict verified
 * against the JWKS) of the real service over loopback on a seeded database (bench/lib).
 */
export async function preflightBaseline(calls: number): Promise<{ listings: number; latencyUs: Percentiles }> {
  // bench-service reads the listing count when it is loaded, so it is loaded after setting it.
  process.env.BENCH_LISTINGS = BASELINE_LISTINGS;
  const { benchCredit, randomListing, startBenchService } = await import("../lib/bench-service.js");
  const svc = await startBenchService();
  try {
    // The service runs on the clock its catalog was seeded for: the client judges verdict expiry at that clock too.
    const now = () => svc.ctx.clock.now().getTime();
    const lookout = createLookoutClient({ baseUrl: svc.server.url, creditId: await benchCredit(svc.ctx), now });
    for (let i = 0; i < 200; i++) await lookout.preflight({ url: randomListing() });
    const us = new Float64Array(calls);
    for (let i = 0; i < calls; i++) {
      const url = randomListing();
      const t = performance.now();
      const report = await lookout.preflight({ url });
      us[i] = (performance.now() - t) * 1000;
      if (!report.verified) throw new Error("the baseline's verdict was not verified");
    }
    return { listings: Number(BASELINE_LISTINGS), latencyUs: percentiles(us) };
  } finally {
    await svc.close();
  }
}
