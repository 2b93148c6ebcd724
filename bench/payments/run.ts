/**
 * bench:payments — paid requests per second end to end on the devnet (402 -> sign -> verify on
 * chain -> handler -> settle on chain), against the same handler served free, in one run.
 * Prints the figure last: paid req/s and its ratio to free req/s.
 */
import { z } from "@hono/zod-openapi";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { pino } from "pino";
import { Registry } from "prom-client";
import { privateKeyToAccount } from "viem/accounts";
import { startDevnet } from "../../src/chain/devnet.js";
import { loadConfig } from "../../src/config.js";
import { createAppContext, Readiness } from "../../src/context.js";
import { devnetRail } from "../../src/chain/payment-rail.js";
import { createApp } from "../../src/http/app.js";
import { createAppGate } from "../../src/http/payment/app-gate.js";
import { defineRoute } from "../../src/http/registry.js";
import { listen } from "../../src/http/serve.js";
import { systemClock } from "../../src/lib/clock.js";
import { createTestDb } from "../../test/helpers/db.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const quote = (id: string, path: string, price: string | null) =>
  defineRoute({
    id,
    method: "post",
    path,
    price,
    title: id,
    summary: "bench route",
    description: "bench route",
    body: z.object({ url: z.string() }),
    response: z.object({ url: z.string(), ok: z.boolean() }),
    examples: { request: { url: "https://a.example" }, response: { url: "https://a.example", ok: true } },
    errors: [],
    handler: async ({ body }) => ({ url: body.url, ok: true }),
  });
const paidRoute = quote("bench-paid", "/bench/paid", "0.001");
const freeRoute = quote("bench-free", "/bench/free", null);

async function loop(call: () => Promise<Response>): Promise<{ rps: number; errors: number; n: number }> {
  const until = Date.now() + SECONDS * 1000;
  let n = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const res = await call();
        await res.arrayBuffer();
        if (res.status === 200) n++;
        else errors++;
      }
    }),
  );
  return { rps: n / ((performance.now() - started) / 1000), errors, n };
}

const log = pino({ level: "warn" });
const devnet = await startDevnet({ log });
// A fresh database for the run: PGlite in memory, or a new database on BENCH_DATABASE_URL's server.
const db = await createTestDb({ serverUrl: process.env.BENCH_DATABASE_URL, poolSize: 16 });
const config = loadConfig({ DATA_DIR: "memory://", LOG_LEVEL: "warn" });
const readiness = new Readiness();
readiness.markMigrated();
const metrics = new Registry();
const ctx = createAppContext({ config, db, clock: systemClock, log, metrics, readiness });
const gate = await createAppGate(ctx, devnetRail(devnet), [paidRoute]);
const server = await listen(createApp({ ctx, routes: [paidRoute, freeRoute], gate }), "127.0.0.1", 0);

// Each worker pays from its own account so signing is not the shared bottleneck.
const payers = devnet.demoAccounts
  .slice(0, CONCURRENCY)
  .map((a) =>
    wrapFetchWithPayment(
      fetch,
      x402Client.fromConfig({ schemes: [{ network: "eip155:84532", client: new ExactEvmScheme(privateKeyToAccount(a.privateKey)) }] }),
    ),
  );
let next = 0;
const init = (path: string) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ url: `https://api.example.com${path}` }),
});

const free = await loop(() => fetch(`${server.url}/bench/free`, init("/free")));
const paid = await loop(() => payers[next++ % payers.length]!(`${server.url}/bench/paid`, init("/paid")));
const settled = await db.db
  .selectFrom("payments")
  .select((eb) => eb.fn.countAll<number>().as("n"))
  .where("status", "=", "settled")
  .executeTakeFirstOrThrow();

await server.close();
await db.close();
await devnet.stop();

console.log(`database: ${db.dialect}; ${SECONDS}s per phase; concurrency ${CONCURRENCY}`);
console.log(`free route: ${free.rps.toFixed(1)} req/s (${free.n} ok, ${free.errors} errors)`);
console.log(`paid route: ${paid.rps.toFixed(1)} req/s (${paid.n} ok, ${paid.errors} errors, ${settled.n} settled on chain)`);
console.log(
  `paid end-to-end = ${paid.rps.toFixed(1)} req/s; ratio paid/free = ${(paid.rps / free.rps).toFixed(4)} (gate overhead x${(free.rps / paid.rps).toFixed(1)})`,
);
