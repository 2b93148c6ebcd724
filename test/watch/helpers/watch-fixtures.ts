import type { AppContext } from "../../../src/context.js";
import type { LookupFunction } from "../../../src/lib/ssrf-guard.js";
import type { WarningCode } from "../../../src/services/signals/constants.js";
import { createWatch, type CreatedWatch } from "../../../src/services/watch/create-watch.js";
import { recompute, seedListing, seedProbes } from "../../helpers/catalog-fixtures.js";
import type { TestContext } from "../../helpers/context.js";
import type { Receiver } from "./receiver.js";

export const MINUTE = 60_000;

const probes = (healthy: boolean) => [1, 5, 10].map((m) => ({ ago: m * MINUTE, healthy }));

/** Half an hour later, three failing probes: `dead` (and `zombie`) fire after the recompute. */
export async function goDown(ctx: TestContext, ...listingIds: number[]): Promise<void> {
  ctx.clock.advance(31 * MINUTE);
  for (const id of listingIds) await seedProbes(ctx, id, probes(false));
  await recompute(ctx);
}

/** Half an hour later, three healthy probes: `dead` clears. */
export async function goUp(ctx: TestContext, ...listingIds: number[]): Promise<void> {
  ctx.clock.advance(31 * MINUTE);
  for (const id of listingIds) await seedProbes(ctx, id, probes(true));
  await recompute(ctx);
}

let n = 0;
/** A listing with healthy history, recomputed. */
export async function healthyListing(ctx: TestContext, price = "0.01"): Promise<{ id: number; url: string }> {
  const url = `https://svc${++n}.example/api/v${n}`;
  const id = await seedListing(ctx, { url, service: `Svc ${n}`, provider: `0x${n}`, price });
  await seedProbes(ctx, id, probes(true));
  await recompute(ctx);
  return { id, url };
}

/** A watch stored through the service (no payment), its receiver path trusted with its key. */
export async function watchOn(
  ctx: AppContext,
  receiver: Receiver,
  path: string,
  url: string,
  opts: { signals?: WarningCode[]; lookup?: LookupFunction; webhookUrl?: string; payer?: string } = {},
): Promise<CreatedWatch> {
  const w = await createWatch(
    { db: ctx.db.db, clock: ctx.clock, rules: { allowPrivate: ctx.config.allowPrivateWebhooks }, lookup: opts.lookup },
    { url, webhookUrl: opts.webhookUrl ?? `${receiver.url}${path}`, signals: opts.signals ?? ["dead"], payer: opts.payer ?? null },
  );
  receiver.trust(path, w.signingSecret);
  return w;
}

export const deliveriesOf = (ctx: AppContext, watchId: string) =>
  ctx.db.db.selectFrom("webhook_deliveries").selectAll().where("watch_id", "=", watchId).orderBy("created_at").orderBy("id").execute();

/** Waits (bounded) until `check` holds. */
export async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
