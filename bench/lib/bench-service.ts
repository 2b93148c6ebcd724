import { pino } from "pino";
import { Registry } from "prom-client";
import { startDevnet, type Devnet } from "../../src/chain/devnet.js";
import { loadConfig } from "../../src/config.js";
import { createAppContext, Readiness, type AppContext } from "../../src/context.js";
import { devnetRail } from "../../src/chain/payment-rail.js";
import { createApp, type App } from "../../src/http/app.js";
import { createAppGate } from "../../src/http/payment/app-gate.js";
import type { AnyRouteDef } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { listen, type RunningServer } from "../../src/http/serve.js";
import { ManualClock, type Clock } from "../../src/lib/clock.js";
import { recomputeVerdicts } from "../../src/services/evidence/index.js";
import type { BenchDb } from "./bench-db.js";
import { openSeededDb } from "./seeded-db.js";

export interface BenchService {
  ctx: AppContext;
  app: App;
  server: RunningServer;
  db: BenchDb;
  devnet: Devnet;
  close(): Promise<void>;
}

const log = pino({ level: "warn" });
export const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);

/** Free copies of paid routes: their handlers over HTTP without the gate (bench:payments measures the gate). */
export const unpaid = (def: AnyRouteDef, path: string): AnyRouteDef => ({ ...def, id: `${def.id}-bench`, path, price: null, product: undefined });

/**
 * The real app on a loopback port over a seeded database (a PGlite data folder, or a new
 * database on BENCH_DATABASE_URL's server; see openSeededDb), with a bare Hono JSON route as the
 * same-process baseline. Without a clock of its own, the service runs on a manual clock at the
 * time the catalog was seeded for.
 */
export async function startBenchService(extraRoutes: AnyRouteDef[] = [], opts: { clock?: Clock } = {}): Promise<BenchService> {
  const seeded = await openSeededDb({ listings: LISTINGS, now: opts.clock?.now(), poolSize: 16 });
  const db = seeded.db;
  const config = loadConfig({
    DATA_DIR: "memory://",
    LOG_LEVEL: "warn",
    TRUST_PROXY: "true",
    CATALOG_URLS: "https://catalog.bench.example/discovery/resources",
    // REPORT_CACHE_ROWS=0 measures the service without its report-row cache (decision 0012).
    REPORT_CACHE_ROWS: process.env.REPORT_CACHE_ROWS,
  });
  const clock = opts.clock ?? new ManualClock(seeded.now);
  const readiness = new Readiness();
  readiness.markMigrated();
  const metrics = new Registry();
  const ctx = createAppContext({ config, db, clock, log, metrics, readiness });
  const verdicts = await recomputeVerdicts(ctx.db, ctx.clock.now());
  await ctx.services.warm();
  console.log(`${LISTINGS} listings with 7 days of hourly history on ${db.label}, ${seeded.origin}; verdict recompute ${verdicts.ms} ms`);

  const devnet = await startDevnet({ log });
  const routes = [...productRoutes, ...extraRoutes];
  const gate = await createAppGate(ctx, devnetRail(devnet), routes);
  const app = createApp({ ctx, routes, gate });
  app.get("/bench/bare", (c) => c.json({ ok: true }));
  const server = await listen(app, "127.0.0.1", 0);
  return {
    ctx,
    app,
    server,
    db,
    devnet,
    async close() {
      await server.close(1000);
      await ctx.services.close();
      await db.close();
      await devnet.stop();
    },
  };
}

/** A bundle with a balance large enough for a benchmark, bound to a settled payment row. */
export async function benchCredit(ctx: AppContext): Promise<string> {
  const payment = await ctx.db.db
    .insertInto("payments")
    .values({
      authorization_key: `bench:${Date.now()}`,
      request_id: "bench",
      route: "credits",
      network: "eip155:84532",
      amount_atomic: "500000",
      status: "settled",
      tx_hash: `0xbench${Date.now()}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const credit = await ctx.db.db
    .insertInto("credits")
    .values({
      balance: 100_000_000,
      initial_balance: 100_000_000,
      paid_amount: "0.5",
      payment_id: payment.id,
      payment_network: "eip155:84532",
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return credit.id;
}

export const listingUrl = (i: number) => `https://h${Math.floor(i / 100)}.bench.example/api/${i}`;
export const randomListing = () => listingUrl(Math.floor(Math.random() * LISTINGS));
/** A client address from the IPv6 documentation range (only ever a header value). */
export const randomIp = () => `2001:db8::${Math.floor(Math.random() * 65536).toString(16)}:${Math.floor(Math.random() * 65536).toString(16)}`;
