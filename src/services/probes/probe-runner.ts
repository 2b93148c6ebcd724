import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Registry } from "prom-client";
import type { DbHandle } from "../../db/client.js";
import { maintainProbeTables } from "../../db/maintenance.js";
import type { Clock } from "../../lib/clock.js";
import { HostLimiter, type HostLimiterOptions } from "../../lib/host-limiter.js";
import type { Logger } from "../../lib/log.js";
import { createGuardedDispatcher, type LookupFunction } from "../../lib/ssrf-guard.js";
import { pruneProbeHistory, refreshEvidence, RETENTION_INTERVAL_MS, type RetentionResult } from "../evidence/index.js";
import * as C from "./constants.js";
import { logCycle, type CycleSummary } from "./cycle-summary.js";
import { endpointStrategy } from "./endpoint-strategy.js";
import { hostCheckStrategy } from "./host-check-strategy.js";
import { createHttpClient } from "./http-client.js";
import { DEFAULT_VANTAGE, markVantageCycle } from "../evidence/index.js";
import { vantageConfirmStrategy } from "./vantage-confirm-strategy.js";
import { probeMetrics } from "./metrics.js";
import { drainDue, type DrainResult, type SchedulerDeps } from "./scheduler.js";
import type { Job, ProbeStrategy } from "./types.js";

type Drain = (deps: SchedulerDeps) => Promise<DrainResult>;
const registered =
  <J extends Job, R>(strategy: ProbeStrategy<J, R>): Drain =>
  (deps) =>
    drainDue(strategy, deps);

/** What the prober role hands the runner: its database, clock, log, metrics and config values. */
export interface ProbeRunnerDeps {
  db: DbHandle;
  clock: Clock;
  log: Logger;
  metrics: Registry;
  /** Named in the User-Agent, so a probed host can see who probes it. */
  publicBaseUrl: string;
  probeIntervalSeconds: number;
  allowPrivateTargets: boolean;
  /** PROBE_VANTAGE (default 'default') and PROBE_SOURCE_ADDRESS (decision 0048). */
  probeVantage?: string;
  probeSourceAddress?: string | undefined;
}

export interface ProberOptions {
  /** Lease owner name (default host:pid:random). */
  owner?: string;
  /** Default: deps.probeIntervalSeconds. */
  intervalSeconds?: number;
  /** Default: deps.allowPrivateTargets. */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBodyBytes?: number;
  limits?: Partial<HostLimiterOptions>;
  /** Name resolution for outbound requests (tests). */
  lookup?: LookupFunction;
  /** Default: deps.probeVantage, deps.probeSourceAddress (tests run two vantages in one process). */
  vantage?: string;
  sourceAddress?: string;
}

export type { CycleSummary };

export interface ProbeRunner {
  runCycle(): Promise<CycleSummary>;
  /** Stops claiming; requests already sent finish and are stored, queued ones are handed back. */
  abort(): void;
  close(): Promise<void>;
}

/**
 * One warning per prober (one per process) at the first target the SSRF guard refuses: an
 * operator's private or loopback catalog would otherwise go unprobed in silence (decision 0037).
 */
function refusedOnce(log: Logger): (job: { host: string; url: string }) => void {
  let warned = false;
  return (job) => {
    if (warned) return;
    warned = true;
    log.warn(
      { host: job.host, setting: "ALLOW_PRIVATE_TARGETS" },
      `probe of ${job.host} refused: it resolves to a loopback or private address; catalog targets like it are not probed (outcome blocked, not counted in uptime) unless ALLOW_PRIVATE_TARGETS=true. Logged once per process; /readyz counts the listings refused`,
    );
  };
}

export function createProbeRunner(deps: ProbeRunnerDeps, opts: ProberOptions = {}): ProbeRunner {
  const { log, clock } = deps;
  const metrics = probeMetrics(deps.metrics);
  const vantage = opts.vantage ?? deps.probeVantage ?? DEFAULT_VANTAGE;
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const timeoutMs = opts.timeoutMs ?? C.PROBE_TIMEOUT_MS;
  const limits = {
    concurrency: C.PER_HOST_CONCURRENCY,
    ratePerSecond: C.PER_HOST_RATE_PER_SECOND,
    burst: C.PER_HOST_BURST,
    globalConcurrency: C.GLOBAL_CONCURRENCY,
    ...opts.limits,
  };
  const dispatcher = createGuardedDispatcher({
    allowPrivate: opts.allowPrivate ?? deps.allowPrivateTargets,
    connectTimeoutMs: timeoutMs,
    connections: limits.concurrency,
    keepAliveTimeoutMs: C.KEEP_ALIVE_TIMEOUT_MS,
    maxHeaderSize: C.MAX_RESPONSE_HEADER_BYTES,
    lookup: opts.lookup,
    localAddress: opts.sourceAddress ?? deps.probeSourceAddress,
  });
  const stop = new AbortController();
  const limiter = new HostLimiter(limits);
  const http = createHttpClient({
    dispatcher,
    limiter,
    timeoutMs,
    maxBodyBytes: opts.maxBodyBytes ?? C.PROBE_BODY_CAP_BYTES,
  });
  // The registry: the scheduler runs each kind the same way and never branches on it.
  const registry = {
    endpoint: registered(endpointStrategy((opts.intervalSeconds ?? deps.probeIntervalSeconds) * 1000, metrics, refusedOnce(log), vantage)),
    confirm: registered(vantageConfirmStrategy(vantage, metrics)),
    host_check: registered(hostCheckStrategy(metrics)),
  };
  let maintainedAt = Number.NEGATIVE_INFINITY;

  return {
    async runCycle() {
      const t0 = performance.now();
      const startedAt = clock.now();
      // Housekeeping first: on the first cycle fresh statistics decide how the claims run.
      let retention: RetentionResult | null = null;
      const at = startedAt.getTime();
      if (!stop.signal.aborted && (at - maintainedAt >= RETENTION_INTERVAL_MS || at < maintainedAt)) {
        retention = await pruneProbeHistory(deps.db.db, startedAt);
        await maintainProbeTables(deps.db, maintainedAt === Number.NEGATIVE_INFINITY);
        maintainedAt = at;
      }
      const t1 = performance.now();
      const drain = { db: deps.db.db, clock, log, http, owner, stopping: () => stop.signal.aborted };
      await markVantageCycle(deps.db.db, vantage, startedAt);
      const [probes, hosts, confirms] = await Promise.all([registry.endpoint(drain), registry.host_check(drain), registry.confirm(drain)]);
      probes.listingIds.push(...confirms.listingIds);
      const probeMs = performance.now() - t1;
      // The stored verdicts of what was just probed follow at once; the full pass is the safety net.
      const { snapshots, verdicts } = await refreshEvidence(deps, probes.listingIds);
      const snapshotMs = performance.now() - t1 - probeMs;
      const durationMs = performance.now() - t0;
      metrics.cycleDuration.observe(durationMs / 1000);
      const summary: CycleSummary = {
        startedAt,
        due: probes.claimed,
        done: probes.done,
        errors: probes.errors,
        hostChecks: { due: hosts.claimed, done: hosts.done, errors: hosts.errors },
        snapshots,
        verdicts,
        retention,
        maintenanceMs: Math.round(t1 - t0),
        probeMs: Math.round(probeMs),
        snapshotMs: Math.round(snapshotMs),
        durationMs: Math.round(durationMs),
      };
      logCycle(log, summary);
      return summary;
    },
    abort: () => {
      stop.abort();
      limiter.cancelWaiting();
    },
    close: () => dispatcher.close(),
  };
}
