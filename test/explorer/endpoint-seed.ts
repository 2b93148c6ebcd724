import { DAY, HOUR, MINUTE } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import type { TestContext } from "../helpers/context.js";

/** Hours (0 = the current one, counting back) in which every probe failed, and one in which one of three did. */
export const FAILING_HOURS = [3, 4, 5, 40, 90];
export const PARTIAL_HOUR = 60;
/** The three probes of hour h take 10, 20 and 30 ms plus h mod 20: p50 and p90 are exact (every ms below 50 has its own bin). */
export const latencyOf = (i: number) => [10, 20, 30][i % 3]! + (Math.floor(i / 3) % 20);
export const HOSTILE_SERVICE = `<script>alert("x")</script>`;
export const HOSTILE_URL = `https://evil.example/x?a="><svg/onload=alert(1)>`;

export interface EndpointSeed {
  id: number;
  url: string;
  hostile: number;
  probes: { healthy: boolean; latency: number }[];
}

/**
 * On a clock at 12:59 UTC, a listing priced at 15 USDC (so it carries a warning) with three
 * probes an hour for 7 days, quote spans, two flagged days and a certificate; and a listing
 * whose service name and URL are markup. Verdicts recomputed as the prober leaves them.
 */
export async function seedEndpoint(ctx: TestContext): Promise<EndpointSeed> {
  ctx.clock.set(new Date("2026-11-20T12:59:00.000Z"));
  const url = "https://wx.example/v1/forecast";
  const id = await seedListing(ctx, { url, service: "Skycast", provider: "0xsky", category: "weather", price: "15" });
  const probes = series(7 * DAY, 20 * MINUTE, (i) => {
    const hour = Math.floor(i / 3);
    const healthy = !FAILING_HOURS.includes(hour) && !(hour === PARTIAL_HOUR && i % 3 === 0);
    return { healthy, status: healthy ? 402 : 503, latency: latencyOf(i) };
  });
  await seedProbes(ctx, id, probes);
  const hostile = await seedListing(ctx, { url: HOSTILE_URL, service: HOSTILE_SERVICE, price: "0.01" });
  await seedProbes(ctx, hostile, series(2 * HOUR, 20 * MINUTE));
  await recompute(ctx);

  const db = ctx.db.db;
  const terms = (digest: string, amount: string) => ({
    digest,
    x402_version: 2,
    scheme: "exact",
    network: "eip155:84532",
    asset: null,
    pay_to: "0xsky",
    amount,
  });
  await db
    .insertInto("quote_terms")
    .values([terms("cheap", "10000"), terms("dear", "15000000")])
    .execute();
  const at = (agoMs: number) => new Date(ctx.clock.now().getTime() - agoMs);
  await db
    .insertInto("listing_quotes")
    .values([
      { listing_id: id, source: "probe", profile: "fetch", digest: "cheap", first_seen_at: at(6 * DAY), last_seen_at: at(3 * DAY) },
      { listing_id: id, source: "probe", profile: "fetch", digest: "dear", first_seen_at: at(3 * DAY - HOUR), last_seen_at: at(HOUR) },
    ])
    .execute();
  await db
    .insertInto("flag_history")
    .values([
      { listing_id: id, day: "2026-11-10", reasons: ["dead"] },
      { listing_id: id, day: "2026-11-11", reasons: ["dead", "mostly_dead"] },
      { listing_id: id, day: "2026-11-20", reasons: ["suspicious_high_price"] },
    ])
    .execute();
  await db
    .insertInto("certificates")
    .values({
      cert_id: "7b0c2a3e-1d4f-4a5b-8c6d-9e0f1a2b3c4d",
      url_pattern: url,
      name: "Skycast Forecast",
      listing_ids: [id],
      tier: "verified",
      verified: true,
      issued_at: at(2 * DAY),
      valid_until: at(-28 * DAY),
    })
    .execute();
  return { id, url, hostile, probes: probes.map((p) => ({ healthy: p.healthy!, latency: p.latency! })) };
}
