import { DAY, HOUR } from "../../src/services/signals/constants.js";
import { recompute, seedListing, seedProbes, series } from "../helpers/catalog-fixtures.js";
import type { TestContext } from "../helpers/context.js";

/** A hostile service name: every page must show it as text. */
export const HOSTILE = `<script>alert("x")</script>`;

export interface ListCatalog {
  forecast: number;
  hourly: number;
  /** Healthy for 4 days, then failing for the last 3: dead now. */
  dead: number;
  /** 2500 USDC. */
  decoy: number;
  /** Provider "Acme Payments" (a name no URL or service carries), on Base mainnet. */
  acme: number;
  /** A URL with a literal "%" and "_". */
  odd: number;
  hostile: number;
  /** Listed, never probed. */
  filler: number[];
  inactive: number;
}

const week = (make: (i: number) => { healthy?: boolean; latency?: number }) => series(7 * DAY, HOUR, make);

/**
 * A catalog with a week of hourly probes and 60 never-probed listings (a second page), on the
 * context's clock; verdicts recomputed, as the prober leaves them.
 */
export async function seedListCatalog(ctx: TestContext): Promise<ListCatalog> {
  const sky = { service: "Skycast", provider: "0xsky", category: "weather" };
  const forecast = await seedListing(ctx, { ...sky, url: "https://wx.example/v1/forecast", price: "0.002" });
  await seedProbes(
    ctx,
    forecast,
    week(() => ({ latency: 120 })),
  );
  const hourly = await seedListing(ctx, { ...sky, url: "https://wx.example/v1/hourly", price: "0.004" });
  await seedProbes(
    ctx,
    hourly,
    week(() => ({ latency: 300 })),
  );
  const dead = await seedListing(ctx, { ...sky, url: "https://wx.example/v2/broken", price: "0.001" });
  await seedProbes(
    ctx,
    dead,
    week((i) => (i < 72 ? { healthy: false } : { latency: 200 })),
  );
  const decoy = await seedListing(ctx, { url: "https://bait.example/api", service: "Goldmine", provider: "0xbait", price: "2500" });
  await seedProbes(
    ctx,
    decoy,
    week(() => ({ latency: 90 })),
  );
  const acme = await seedListing(ctx, { url: "https://pay.example/quote", service: "Quoter", provider: "0xacme", category: "finance", price: "0.05" });
  await seedProbes(
    ctx,
    acme,
    week(() => ({ latency: 80 })),
  );
  await ctx.db.db.updateTable("providers").set({ name: "Acme Payments" }).where("provider_id", "=", "0xacme").execute();
  await ctx.db.db.updateTable("listings").set({ network: "eip155:8453" }).where("id", "=", acme).execute();
  const odd = await seedListing(ctx, { url: "https://odd.example/v1/100%25_pure", service: "Odd", price: "0.01" });
  await seedProbes(
    ctx,
    odd,
    week(() => ({ latency: 100 })),
  );
  const hostile = await seedListing(ctx, { url: "https://evil.example/x", service: HOSTILE, provider: "0xevil", price: "0.01" });
  await seedProbes(
    ctx,
    hostile,
    week(() => ({ latency: 100 })),
  );
  const filler: number[] = [];
  for (let i = 0; i < 60; i++) filler.push(await seedListing(ctx, { url: `https://filler.example/e/${i}`, service: "Filler", price: "0.003" }));
  const inactive = await seedListing(ctx, { url: "https://wx.example/v0/retired", ...sky, active: false });
  await recompute(ctx);
  return { forecast, hourly, dead, decoy, acme, odd, hostile, filler, inactive };
}
