import type { AppContext } from "../../src/context.js";
import { recomputeSnapshots, recomputeVerdicts, rollupProbes } from "../../src/services/evidence/index.js";
import { normalizeUrl } from "../../src/lib/url-normalize.js";

type Ctx = Pick<AppContext, "db" | "clock">;

export interface ListingSeed {
  url: string;
  service?: string;
  provider?: string;
  /** The listing's payTo (listings.pay_to); none by default. */
  payTo?: string | null;
  price?: string | null;
  method?: string;
  category?: string;
  firstSeenAt?: Date;
  serviceFirstSeenAt?: Date;
  l30dCalls?: number | null;
  lastCalledAt?: Date | null;
  active?: boolean;
}

/** A catalog listing as the ingester would have stored it. */
export async function seedListing(ctx: Ctx, seed: ListingSeed): Promise<number> {
  const db = ctx.db.db;
  const now = ctx.clock.now();
  const u = new URL(seed.url);
  const serviceName = seed.service ?? u.host;
  const serviceId = serviceName.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const since = seed.serviceFirstSeenAt ?? seed.firstSeenAt ?? new Date(now.getTime() - 10 * 86_400_000);
  await db
    .insertInto("services")
    .values({ service_id: serviceId, name: serviceName, origin: u.origin, first_seen_at: since, last_seen_at: now })
    .onConflict((oc) => oc.column("service_id").doNothing())
    .execute();
  const providerId = seed.provider ?? null;
  if (providerId) {
    await db
      .insertInto("providers")
      .values({ provider_id: providerId, network: "eip155:84532", pay_to: providerId, name: serviceName, first_seen_at: since })
      .onConflict((oc) => oc.column("provider_id").doNothing())
      .execute();
  }
  const price = seed.price === undefined ? "0.01" : seed.price;
  const active = seed.active ?? true;
  const row = await db
    .insertInto("listings")
    .values({
      url: seed.url,
      url_normalized: normalizeUrl(seed.url),
      method: seed.method ?? "POST",
      service_id: serviceId,
      provider_id: providerId,
      host: u.host,
      domain: u.hostname,
      category: seed.category ?? "data",
      price_usdc: price,
      price_atomic: price === null ? null : String(Math.round(Number(price) * 1e6)),
      currency: "USDC",
      network: "eip155:84532",
      pay_to: seed.payTo ?? null,
      source_url: "http://catalog.test/discovery/resources",
      first_seen_at: seed.firstSeenAt ?? since,
      last_seen_at: now,
      is_active: active,
      deactivated_at: active ? null : now,
      l30d_calls: seed.l30dCalls === undefined ? 100 : seed.l30dCalls,
      last_called_at: seed.lastCalledAt === undefined ? new Date(now.getTime() - 3_600_000) : seed.lastCalledAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface ProbeSeed {
  /** Milliseconds before the clock's now. */
  ago: number;
  healthy?: boolean;
  status?: number | null;
  latency?: number | null;
  price?: string | null;
}

export async function seedProbes(ctx: Ctx, listingId: number, probes: readonly ProbeSeed[]): Promise<void> {
  const now = ctx.clock.now().getTime();
  if (probes.length === 0) return;
  await ctx.db.db
    .insertInto("probes")
    .values(
      probes.map((p) => {
        const healthy = p.healthy ?? true;
        return {
          listing_id: listingId,
          probed_at: new Date(now - p.ago),
          outcome: healthy ? "healthy" : "error",
          status_code: p.status === undefined ? (healthy ? 402 : 503) : p.status,
          error_kind: p.status === null ? "refused" : null,
          latency_ms: p.latency === undefined ? 100 : p.latency,
          price_usdc: p.price === undefined ? null : p.price,
          challenge_version: healthy ? 2 : null,
        };
      }),
    )
    .execute();
}

/** Every `everyMs` over `spanMs` before now. */
export const series = (spanMs: number, everyMs: number, make: (i: number) => Omit<ProbeSeed, "ago"> = () => ({})): ProbeSeed[] =>
  Array.from({ length: Math.floor(spanMs / everyMs) }, (_, i) => ({ ago: i * everyMs + 1000, ...make(i) }));

/** What the prober does after a cycle: rollups, evidence, verdicts. */
export async function recompute(ctx: Ctx): Promise<void> {
  await rollupProbes(ctx.db.db, new Date(ctx.clock.now().getTime() - 8 * 86_400_000));
  await recomputeSnapshots(ctx);
  await recomputeVerdicts(ctx.db, ctx.clock.now());
}
