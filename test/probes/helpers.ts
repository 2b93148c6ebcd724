import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";
import { HostLimiter } from "../../src/lib/host-limiter.js";
import { createGuardedDispatcher } from "../../src/lib/ssrf-guard.js";
import { createHttpClient } from "../../src/services/probes/http-client.js";

export const USDC_BASE_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

export interface TestServer {
  url: string;
  host: string;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on an ephemeral loopback port. */
export async function startServer(handler: Handler, address = "127.0.0.1"): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    host: `${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A v2 PaymentRequired as the x402 SDK builds it. */
export function v2Challenge(amount: string, extra: Array<Record<string, unknown>> = []) {
  return {
    x402Version: 2,
    error: "Payment required",
    resource: { url: "http://example.test/api", description: "test", mimeType: "application/json" },
    accepts: [
      ...extra,
      { scheme: "exact", network: "eip155:84532", amount, asset: USDC_BASE_SEPOLIA, payTo: "0x" + "1".repeat(40), maxTimeoutSeconds: 300, extra: {} },
    ],
  };
}

export function v1Challenge(maxAmountRequired: string) {
  return {
    x402Version: 1,
    error: "X-PAYMENT header is required",
    accepts: [
      {
        scheme: "exact",
        network: "base-sepolia",
        maxAmountRequired,
        resource: "http://example.test/api",
        description: "test",
        mimeType: "application/json",
        payTo: "0x" + "1".repeat(40),
        maxTimeoutSeconds: 60,
        asset: USDC_BASE_SEPOLIA,
      },
    ],
  };
}

export const paymentRequiredHeader = (challenge: object) => encodePaymentRequiredHeader(challenge as never);

export function send402(res: ServerResponse, opts: { header?: string; body?: string }) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.header !== undefined) headers["payment-required"] = opts.header;
  res.writeHead(402, headers).end(opts.body ?? "{}");
}

/** An HTTP client as the prober builds it, private targets allowed (loopback test servers). */
export function testHttpClient(opts: { timeoutMs?: number; maxBodyBytes?: number; concurrency?: number; rate?: number } = {}) {
  const dispatcher = createGuardedDispatcher({ allowPrivate: true, connectTimeoutMs: opts.timeoutMs ?? 5_000 });
  const limiter = new HostLimiter({
    concurrency: opts.concurrency ?? 4,
    ratePerSecond: opts.rate ?? 1_000,
    burst: opts.rate ?? 1_000,
    globalConcurrency: 64,
  });
  const http = createHttpClient({
    dispatcher,
    limiter,
    timeoutMs: opts.timeoutMs ?? 5_000,
    maxBodyBytes: opts.maxBodyBytes ?? 256 * 1024,
  });
  return { http, close: () => dispatcher.close() };
}

let serviceCounter = 0;

export interface ListingSeed {
  url: string;
  method?: string;
  network?: string | null;
  asset?: string | null;
  serviceId?: string;
  isActive?: boolean;
  nextProbeAt?: Date;
  /** The catalog's price (USDC, 6 decimals); a listing without one is not paid. */
  priceUsdc?: string;
}

/** Inserts listings (and their service rows) directly; returns their ids in input order. */
export async function insertListings(db: Kysely<Database>, seeds: ListingSeed[], now = new Date("2026-11-20T12:00:00Z")): Promise<number[]> {
  const serviceId = `svc-${++serviceCounter}-${Math.random().toString(36).slice(2, 8)}`;
  const serviceIds = [...new Set(seeds.map((s) => s.serviceId ?? serviceId))];
  await db
    .insertInto("services")
    .values(serviceIds.map((id) => ({ service_id: id, name: id, origin: null, first_seen_at: now, last_seen_at: now })))
    .onConflict((oc) => oc.column("service_id").doNothing())
    .execute();
  const rows = await db
    .insertInto("listings")
    .values(
      seeds.map((s) => ({
        url: s.url,
        url_normalized: new URL(s.url).toString(),
        method: s.method ?? "POST",
        service_id: s.serviceId ?? serviceId,
        host: new URL(s.url).host,
        network: s.network === undefined ? "eip155:84532" : s.network,
        asset: s.asset === undefined ? USDC_BASE_SEPOLIA : s.asset,
        source_url: "http://catalog.test/discovery",
        first_seen_at: now,
        last_seen_at: now,
        is_active: s.isActive ?? true,
        deactivated_at: s.isActive === false ? now : null,
        next_probe_at: s.nextProbeAt ?? now,
        ...(s.priceUsdc === undefined ? {} : { price_usdc: s.priceUsdc, price_atomic: String(Math.round(Number(s.priceUsdc) * 1e6)) }),
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => Number(r.id));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Moves the injected clock to the listing's next probe and runs one prober cycle there; when it ran. */
export async function probeAtNextDue(
  ctx: { db: { db: Kysely<Database> }; clock: { set(at: Date): void } },
  prober: { runNow(): Promise<{ done: number }> },
  id: number,
): Promise<Date> {
  const { next_probe_at: at } = await ctx.db.db.selectFrom("listings").select("next_probe_at").where("id", "=", id).executeTakeFirstOrThrow();
  ctx.clock.set(at);
  const { done } = await prober.runNow();
  if (done !== 1) throw new Error(`expected the one due listing to be probed at ${at.toISOString()}, the cycle probed ${done}`);
  return at;
}
