import { sql } from "kysely";
import { pino } from "pino";
import type { Registry } from "prom-client";
import type { Hex } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";
import { rpcLogSource } from "../../src/chain/log-source.js";
import { createChainIndexer, type LogSource } from "../../src/services/index.js";
import { updateVerdicts } from "../../src/services/evidence/index.js";
import { DAY } from "../../src/services/signals/constants.js";
import type { TestContext } from "../helpers/context.js";
import { insertListings } from "../probes/helpers.js";

export const NETWORK = "eip155:84532";
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/** Listings on the devnet's network with these payTos and prices, listed `listedDaysAgo`, healthy. */
export async function listOnChain(ctx: TestContext, items: Array<{ url: string; payTo: string; priceUsdc: string }>, listedDaysAgo = 10): Promise<number[]> {
  const listed = new Date(ctx.clock.now().getTime() - listedDaysAgo * DAY);
  const ids = await insertListings(
    ctx.db.db,
    items.map((i) => ({ url: i.url, priceUsdc: i.priceUsdc })),
    listed,
  );
  for (const [n, id] of ids.entries()) await ctx.db.db.updateTable("listings").set({ pay_to: items[n]!.payTo }).where("id", "=", id).execute();
  await updateVerdicts({ db: ctx.db.db }, ids, ctx.clock.now());
  await sql`update signal_snapshots set last_outcome = 'healthy' where listing_id = any(${ids}::bigint[])`.execute(ctx.db.db);
  return ids;
}

/** The indexer as the worker builds it, on the devnet: nothing confirmed-deep (anvil does not reorganise by itself), small ranges. */
export function devnetIndexer(
  ctx: TestContext,
  devnet: Devnet,
  opts: { source?: LogSource; ownWallets?: string[]; ghostListedHours?: number; metrics?: Registry; maxRowsPerWrite?: number } = {},
) {
  return createChainIndexer({
    db: ctx.db.db,
    clock: ctx.clock,
    log,
    source: opts.source ?? rpcLogSource(devnet.publicClient, devnet.usdcAddress, 1000),
    network: NETWORK,
    limits: { confirmations: 0n, rangeBlocks: 25n, maxRowsPerWrite: opts.maxRowsPerWrite },
    knownSigners: async () => [devnet.facilitatorAccount.address.toLowerCase()],
    ownWallets: opts.ownWallets ?? [],
    ghostListedHours: opts.ghostListedHours ?? 168,
    metrics: opts.metrics,
  });
}

/** Ticks until every payTo is read to the head and a tick reads nothing more. */
export async function catchUp(indexer: ReturnType<typeof devnetIndexer>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const r = await indexer.tick();
    if (r.lag === 0n && r.ranges <= 1) return;
  }
  throw new Error("the indexer did not catch up in 500 ticks");
}

export const summaryOf = async (ctx: TestContext, id: number): Promise<any> =>
  (await ctx.db.db.selectFrom("signal_snapshots").select("settlements").where("listing_id", "=", id).executeTakeFirstOrThrow()).settlements;

export const keyOf = (devnet: Devnet, n: number): Hex => devnet.demoAccounts[n]!.privateKey;
export const addressOf = (devnet: Devnet, n: number): string => devnet.demoAccounts[n]!.address;
