import type { Logger } from "../../lib/log.js";
import type { RetentionResult } from "../evidence/index.js";

export interface CycleSummary {
  startedAt: Date;
  /** Listings claimed (due) in this cycle, probed, and probes that were errors. */
  due: number;
  done: number;
  errors: number;
  hostChecks: { due: number; done: number; errors: number };
  snapshots: number;
  /** Stored verdicts the fresh evidence changed (the incremental update). */
  verdicts: number;
  retention: RetentionResult | null;
  /** Retention and table maintenance (when due), claim to last write of the probes, snapshots and verdicts, all. */
  maintenanceMs: number;
  probeMs: number;
  snapshotMs: number;
  durationMs: number;
}

/**
 * One line per cycle (issue: due, done, errors, duration). Idle cycles, every few seconds, log
 * at debug so an idle prober does not flood the log.
 */
export function logCycle(log: Logger, summary: CycleSummary): void {
  const { retention } = summary;
  const busy = summary.due + summary.hostChecks.due > 0 || (retention !== null && retention.probes + retention.rollups > 0);
  log[busy ? "info" : "debug"](
    {
      cycle: "probe",
      due: summary.due,
      done: summary.done,
      errors: summary.errors,
      host_checks: summary.hostChecks.done,
      host_check_errors: summary.hostChecks.errors,
      snapshots: summary.snapshots,
      verdicts: summary.verdicts,
      deleted_probes: retention?.probes ?? 0,
      deleted_rollups: retention?.rollups ?? 0,
      duration_ms: summary.durationMs,
    },
    "probe cycle",
  );
}
