import { Gauge, type Registry } from "prom-client";
import type { AppContext } from "../context.js";
import { countUnfinishedPayments, readFreshness } from "../db/read-models/operations-state.js";
import { withDeadline } from "../lib/transient-errors.js";

const READ_DEADLINE_MS = 2_000;

interface State {
  verdictAgeSeconds: number;
  catalogAgeSeconds: number;
  unfinishedPayments: number;
}

/**
 * Gauges read from the database when Prometheus scrapes (one read per scrape, shared by the
 * three): seconds since the newest verdict recompute and complete catalog poll, and payments
 * not finished. NaN while unknown (none yet, or the database did not answer in 2 s).
 */
export function registerStateGauges(ctx: Pick<AppContext, "db" | "clock" | "log" | "metrics">): void {
  const registry: Registry = ctx.metrics;
  if (registry.getSingleMetric("lookout_verdict_age_seconds")) return;
  let reading: { at: number; state: Promise<State | undefined> } | undefined;
  const read = () => {
    if (reading && Date.now() - reading.at < 1_000) return reading.state;
    const state = withDeadline("the state gauges' read", READ_DEADLINE_MS, async () => {
      const now = ctx.clock.now().getTime();
      const [fresh, unfinished] = await Promise.all([readFreshness(ctx.db, new Date(now)), countUnfinishedPayments(ctx.db)]);
      const age = (at: Date | null) => (at ? Math.max(0, (now - at.getTime()) / 1000) : Number.NaN);
      return { verdictAgeSeconds: age(fresh.verdictAt), catalogAgeSeconds: age(fresh.catalogPollAt), unfinishedPayments: unfinished };
    }).catch((err: unknown) => {
      ctx.log.warn({ err: (err as Error).message }, "metrics: the database did not answer; state gauges are NaN");
      return undefined;
    });
    reading = { at: Date.now(), state };
    return state;
  };
  const gauge = (name: string, help: string, pick: (s: State) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const s = await read();
        this.set(s ? pick(s) : Number.NaN);
      },
    });
  gauge("lookout_verdict_age_seconds", "Seconds since the newest verdict recompute finished", (s) => s.verdictAgeSeconds);
  gauge("lookout_catalog_age_seconds", "Seconds since the newest complete catalog poll finished", (s) => s.catalogAgeSeconds);
  gauge("lookout_payments_unfinished", "Payments claimed or settling: an answer or a settlement not finished", (s) => s.unfinishedPayments);
}
