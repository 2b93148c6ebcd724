/**
 * An alternative's score, higher is better: its match tier first (0 same_service .. 4
 * similar_price), then 7-day uptime, then 1-hour latency. Unknown uptime counts as 0 and unknown
 * latency as the 10 s cap, so a candidate without evidence ranks last in its tier.
 */
export const SCORE_FORMULA = "(5 - tier) x 1000 + uptime_7d_pct x 5 - min(avg_latency_1h_ms, 10000) / 100";

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The within-tier part: what the candidates of one tier are ordered by. */
export const rankScore = (uptime7dPct: number | null, avgLatency1hMs: number | null): number =>
  round2((uptime7dPct ?? 0) * 5 - Math.min(avgLatency1hMs ?? 10_000, 10_000) / 100);

/** The whole score from its tier and the within-tier part (already rounded to 2 places). */
export const tierScore = (tier: number, rank: number): number => round2((5 - tier) * 1000 + rank);
