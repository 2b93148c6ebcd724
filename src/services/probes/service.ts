import type { Registry } from "prom-client";
import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/log.js";
import { createProbeRunner, type ProberOptions } from "./probe-runner.js";

export interface ProbesConfig {
  publicBaseUrl: string;
  probeIntervalSeconds: number;
  allowPrivateTargets: boolean;
  probeVantage?: string;
  probeSourceAddress?: string | undefined;
}

export interface ProbesDeps {
  db: DbHandle;
  clock: Clock;
  log: Logger;
  /** Where each runner registers its series. */
  metrics: Registry;
  config: ProbesConfig;
}

/** The prober's work as the job runtime runs it: each prober process makes one runner. */
export function createProbesService({ db, clock, log, metrics, config }: ProbesDeps) {
  const { publicBaseUrl, probeIntervalSeconds, allowPrivateTargets, probeVantage, probeSourceAddress } = config;
  return {
    /** `runLog`: the worker's logger (its fields name the worker). */
    runner: (opts: ProberOptions = {}, runLog: Logger = log) =>
      createProbeRunner({ db, clock, log: runLog, metrics, publicBaseUrl, probeIntervalSeconds, allowPrivateTargets, probeVantage, probeSourceAddress }, opts),
  };
}

export type ProbesService = ReturnType<typeof createProbesService>;
