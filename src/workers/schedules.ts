import { chainReader, remoteChainClient } from "../chain/chain-reader.js";
import type { PaymentRail } from "../chain/payment-rail.js";
import type { Config, Role } from "../config.js";
import type { AppContext } from "../context.js";
import { ALERTER_TICK_MS, DATASET, DELIST, DELIVERY_POLL_MS, PROBE_TICK_MS } from "../services/index.js";
import { alerterTask } from "./alerter.js";
import { CANARY_TICK_MS, canaryTask } from "./canary.js";
import { datasetTask } from "./dataset.js";
import { flagRecorderTask } from "./delist-flags.js";
import { indexerTask } from "./indexer.js";
import { ingestCadenceMs, ingesterTask } from "./ingester.js";
import { paymentReconcilerTask, RECONCILE_INTERVAL_MS } from "./payments.js";
import { startTask, type Periodic, type Task } from "./periodic.js";
import { proberTask } from "./prober.js";
import { VERDICT_RECOMPUTE_MS, verdictsTask } from "./verdicts.js";
import { webhookDeliveryTask } from "./webhook-delivery.js";

/** What a task is built from: the process's context, and what its role was started with. */
export interface ScheduleDeps {
  ctx: AppContext;
  /** Present when this process runs the API. */
  rail: PaymentRail | undefined;
  catalogUrls: string[];
}

export interface Schedule {
  /** Names the task in logs and in the shutdown order. */
  name: string;
  role: Role;
  /** The kinds of work its one tick runs, where it runs more than one. */
  runs?: string[];
  intervalMs(config: Config): number;
  task(deps: ScheduleDeps): Task;
}

/**
 * Every periodic task, in start order per role. Some entries run several kinds of work in one
 * tick and stay one entry, because splitting them would change when each runs: the probe cycle
 * (endpoint probes and host checks drain side by side, retention and table maintenance run at
 * its start every RETENTION_INTERVAL_MS). The alerter's evaluation and webhook delivery are two
 * entries: evaluation only queues alerts, so no receiver can hold it up.
 */
export const SCHEDULES: readonly Schedule[] = [
  { name: "payment reconciler", role: "api", intervalMs: () => RECONCILE_INTERVAL_MS, task: ({ ctx, rail }) => paymentReconcilerTask(ctx, railOf(rail).chain) },
  // Dataset files live on the api process's disk, where /dataset serves them.
  { name: "dataset scheduler", role: "api", intervalMs: () => DATASET.checkEveryMs, task: ({ ctx }) => datasetTask(ctx) },
  { name: "ingester", role: "ingester", runs: ["catalog poll"], intervalMs: ingestCadenceMs, task: ({ ctx, catalogUrls }) => ingesterTask(ctx, catalogUrls) },
  { name: "prober", role: "prober", runs: ["probe cycle", "host checks", "retention"], intervalMs: () => PROBE_TICK_MS, task: ({ ctx }) => proberTask(ctx) },
  { name: "verdicts", role: "prober", runs: ["verdict recompute"], intervalMs: () => VERDICT_RECOMPUTE_MS, task: ({ ctx }) => verdictsTask(ctx) },
  { name: "delist flags", role: "prober", runs: ["flag recording"], intervalMs: () => DELIST.recordEveryMs, task: ({ ctx }) => flagRecorderTask(ctx) },
  { name: "alerter", role: "alerter", runs: ["alerter evaluation"], intervalMs: () => ALERTER_TICK_MS, task: ({ ctx }) => alerterTask(ctx) },
  { name: "webhook delivery", role: "alerter", intervalMs: () => DELIVERY_POLL_MS, task: ({ ctx }) => webhookDeliveryTask(ctx) },
  // The paid checker: only with a key (roles.ts says once when it is off); the chain is the rail's, else RPC_URL's.
  {
    name: "canary",
    role: "canary",
    runs: ["delivery checks", "check reconciliation"],
    intervalMs: () => CANARY_TICK_MS,
    task: ({ ctx, rail }) =>
      canaryTask(ctx, rail?.chain ?? chainReader(remoteChainClient(ctx.config.network, ctx.config.rpcUrl)), ctx.config.canary.privateKey!),
  },
  // Settlements to every known payTo from the chain (decision 0052): the devnet this process runs, else RPC_URL.
  {
    name: "chain indexer",
    role: "indexer",
    runs: ["log ranges", "settlement summaries"],
    intervalMs: (config) => config.chain.indexIntervalSeconds * 1000,
    task: ({ ctx, rail }) => indexerTask(ctx, rail),
  },
];

function railOf(rail: PaymentRail | undefined): PaymentRail {
  if (!rail) throw new Error("the api role needs a payment rail");
  return rail;
}

/** Starts the tasks of `role` with the one runtime; returns them with their names, in start order. */
export function startSchedules(role: Role, deps: ScheduleDeps): Array<{ name: string; task: Periodic<unknown> }> {
  return SCHEDULES.filter((s) => s.role === role).map((s) => ({
    name: s.name,
    task: startTask(s.name, s.intervalMs(deps.ctx.config), s.task(deps), deps.ctx.log),
  }));
}
