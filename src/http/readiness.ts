import type { AppContext } from "../context.js";
import { readFreshness, type Freshness } from "../db/read-models/operations-state.js";
import { probingCheck, readProbing, type Check } from "./readiness-probing.js";
import { shownUrl } from "../lib/redact.js";
import { withDeadline } from "../lib/transient-errors.js";

export type { Check } from "./readiness-probing.js";
export interface ReadyReport {
  ready: boolean;
  checks: Record<"process" | "database" | "verdicts" | "catalog" | "facilitator" | "probing", Check>;
}

const DB_DEADLINE_MS = 2_000;
const FACILITATOR_DEADLINE_MS = 5_000;
// An answer is kept this long, a failure less: a recovered facilitator is seen again soon.
const FACILITATOR_OK_TTL_MS = 30_000;
const FACILITATOR_FAIL_TTL_MS = 5_000;
const SHARED_MS = 1_000;

/** /readyz's checks (docs/operations.md): what must hold for this process to take traffic. */
export function createReadinessProbe(ctx: Pick<AppContext, "db" | "clock" | "config" | "readiness">): () => Promise<ReadyReport> {
  let facilitator: { check: Check; until: number } | undefined;
  const facilitatorCheck = async (): Promise<Check> => {
    const ask = ctx.readiness.facilitator;
    if (!ask) return { ok: true, reason: "this process takes no payments" };
    if (facilitator && facilitator.until > Date.now()) return facilitator.check;
    const check = await withDeadline("the facilitator's /supported", FACILITATOR_DEADLINE_MS, ask).then(
      () => ({ ok: true, reason: "the facilitator answered /supported" }),
      (err: unknown) => ({ ok: false, reason: `the facilitator did not answer /supported: ${(err as Error).message}`.slice(0, 300) }),
    );
    facilitator = { check, until: Date.now() + (check.ok ? FACILITATOR_OK_TTL_MS : FACILITATOR_FAIL_TTL_MS) };
    return check;
  };

  // /readyz is public: calls within a second share one evaluation (four indexed reads).
  let last: { at: number; report: Promise<ReadyReport> } | undefined;
  return () => {
    if (!last || Date.now() - last.at >= SHARED_MS) last = { at: Date.now(), report: evaluate() };
    return last.report;
  };

  async function evaluate(): Promise<ReadyReport> {
    const now = ctx.clock.now();
    const bounds = ctx.config.ready;
    const live = ctx.readiness.snapshot();
    const process: Check = ctx.readiness.ready
      ? { ok: true, reason: "migrations ran and every role started" }
      : { ok: false, reason: `starting: ${live.migrated ? `roles not started yet: ${live.pending.join(", ")}` : "migrations not run yet"}` };
    const since = new Date(now.getTime() - bounds.catalogMaxAgeSeconds * 1000);
    const [fresh, facilitatorResult] = await Promise.all([
      withDeadline("select 1", DB_DEADLINE_MS, () => ctx.db.ping())
        .then(() =>
          withDeadline("the freshness read", DB_DEADLINE_MS, () =>
            Promise.all([readFreshness(ctx.db, since), readProbing(ctx.db, now, ctx.config.probeIntervalSeconds)]),
          ),
        )
        .catch((err: unknown) => err as Error),
      facilitatorCheck(),
    ]);
    const startedAt = ctx.readiness.startedAt;
    const inGrace = startedAt !== undefined && now.getTime() - startedAt.getTime() < bounds.startGraceSeconds * 1000;
    const checks: ReadyReport["checks"] =
      fresh instanceof Error
        ? {
            process,
            database: { ok: false, reason: `the database did not answer: ${fresh.message}`.slice(0, 300) },
            verdicts: { ok: false, reason: "unknown: the database did not answer" },
            catalog: { ok: false, reason: "unknown: the database did not answer" },
            facilitator: facilitatorResult,
            probing: { ok: true, reason: "unknown: the database did not answer" },
          }
        : {
            process,
            database: { ok: true, reason: "select 1 answered" },
            verdicts: ageCheck("verdict recompute", fresh[0].verdictAt, now, bounds.verdictMaxAgeSeconds, inGrace),
            catalog: catalogCheck(fresh[0], now, bounds.catalogMaxAgeSeconds, inGrace),
            facilitator: facilitatorResult,
            probing: probingCheck(fresh[1], ctx.config.allowPrivateTargets),
          };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }
}

function ageCheck(what: string, at: Date | null, now: Date, maxSeconds: number, inGrace: boolean): Check {
  if (!at) return { ok: false, reason: `no ${what} has finished yet${inGrace ? " (the first is on its way)" : ""}` };
  const age = Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000));
  if (age <= maxSeconds) return { ok: true, reason: `newest ${what} ${age} s ago (bound ${maxSeconds} s)`, age_seconds: age };
  // Just started on old data: the old one counts until the grace ends, so a restart is ready at once.
  if (inGrace) return { ok: true, reason: `newest ${what} ${age} s ago; over the ${maxSeconds} s bound, allowed while the process starts`, age_seconds: age };
  return { ok: false, reason: `newest ${what} ${age} s ago, over the ${maxSeconds} s bound`, age_seconds: age };
}

function catalogCheck(fresh: Freshness, now: Date, maxSeconds: number, inGrace: boolean): Check {
  const age = ageCheck("complete catalog poll", fresh.catalogPollAt, now, maxSeconds, inGrace);
  const problems = [
    ...(age.ok ? [] : [age.reason]),
    ...(fresh.activeListings ? [] : ["the catalog has no active listings"]),
    ...(fresh.failingSources.length ? [`failing catalog sources: ${fresh.failingSources.map(shownUrl).join(", ")}`] : []),
  ];
  return problems.length ? { ok: false, reason: problems.join("; "), age_seconds: age.age_seconds } : age;
}
