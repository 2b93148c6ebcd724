import { z } from "zod";
import { dateTime, percent } from "../common.js";
import { DELIST_LIMITS as DELIST, DELIST_SCOPES } from "./limits.js";

export const ScopeField = z
  .enum(DELIST_SCOPES, { error: "scope must be one of critical, ghost, all" })
  .default("all")
  .describe("critical = dead, zombie, decoy (and dead_7d, mostly_dead, pay_to_mismatch, paid_no_delivery); ghost = alive but never used; all = both");

export const LimitField = z
  .number({ error: `limit must be an integer from ${DELIST.limit.min} to ${DELIST.limit.max}` })
  .int(`limit must be an integer from ${DELIST.limit.min} to ${DELIST.limit.max}`)
  .min(DELIST.limit.min, `limit must be at least ${DELIST.limit.min}`)
  .max(DELIST.limit.max, `limit must be at most ${DELIST.limit.max}`)
  .default(DELIST.limit.default)
  .describe("cap applied to should_delist and recovered separately");

const Recovered = z.object({
  url: z.string(),
  method: z.string(),
  was_reasons: z.array(z.string()),
  flagged_until: dateTime().describe("end of the last flagged UTC day (now when that day is today)"),
  uptime_48h_pct: percent().int(),
});

const Counts = {
  should_delist: z.number().int(),
  newly_flagged: z.number().int().describe("listings whose current flag streak began in the last 24 hours (diff: since `since`)"),
  recovered: z.number().int(),
  ghost_listings: z.number().int(),
};

const Common = {
  generated_at: dateTime(),
  scope: z.enum(DELIST_SCOPES),
  truncated: z.boolean().describe("true when `limit` cut should_delist or recovered"),
  limit: z.number().int(),
  recovered: z.array(Recovered),
};

const Flag = {
  url: z.string(),
  method: z.string(),
  reasons: z.array(z.string()).describe("dead, decoy_price_extreme, zombie, dead_7d, mostly_dead, pay_to_mismatch, paid_no_delivery, ghost_listing"),
  first_flagged_at: dateTime().describe("start of the current flag streak"),
  confidence: z.enum(["low", "high"]).describe(`high from ${DELIST.highConfidenceDays} consecutive flagged days`),
};

export const DelistSnapshotSchema = z.object({
  ...Common,
  mode: z.literal("snapshot"),
  counts: z.object({
    ...Counts,
    by_reason: z.record(z.string(), z.number().int()).describe("flagged listings per blacklist reason and ghost_listing (the scope's)"),
    by_added_reason: z
      .record(z.string(), z.number().int())
      .describe("flagged listings per reason this service adds to those: dead, pay_to_mismatch, paid_no_delivery (the scope's)"),
  }),
  should_delist: z.array(
    z.object({
      ...Flag,
      flagged_days_consecutive: z.number().int().describe("consecutive flagged UTC days up to today, from the persisted flag history"),
      uptime_7d_pct: percent().int().nullable().describe("null without probes in 7 days"),
      cdp_listed: z.boolean().describe("CDP's own catalog (a source on api.cdp.coinbase.com) lists it now"),
      cdp_l30d_calls: z
        .number()
        .int()
        .describe("calls in the last 30 days as the catalog reports them, else as the chain shows them (decision 0052); 0 when unknown"),
      chain: z
        .object({
          settled_calls_30d: z.number().int(),
          distinct_payers_30d: z.number().int(),
          last_settled_at: dateTime().nullable(),
          self_dealing: z.boolean(),
        })
        .nullable()
        .describe("what the chain shows of its use over 30 days, a ghost's evidence (decision 0052); null where its payTo is not indexed"),
    }),
  ),
});

export const DelistDiffSchema = z.object({
  ...Common,
  mode: z.literal("diff"),
  window: z.object({ since: dateTime(), until: dateTime() }),
  counts: z.object(Counts),
  should_delist: z.array(z.object(Flag)),
});

export const DelistFeedBody = z.object({ scope: ScopeField, limit: LimitField });

export const DelistDiffBody = z.object({
  since: z
    .string({ error: "since must be an ISO 8601 date-time string" })
    .datetime({ offset: true, error: "since must be an ISO 8601 date-time such as 2026-11-20T12:00:00Z" })
    .optional()
    .describe("default: now minus 24 hours; at most 48 hours back; not in the future"),
  scope: ScopeField,
  limit: LimitField,
});
