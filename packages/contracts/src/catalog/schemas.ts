import { z } from "zod";
import { BLACKLIST_REASONS, MATCH_REASONS } from "../codes.js";
import { dateTime, httpUrlField, percent } from "../common.js";
import { WHATS_NEW_LIMIT } from "./limits.js";

/** Spec 2.7, 2.8, 2.10: the catalog products' requests and answers. */

// ---- alternatives ---------------------------------------------------------------------------

export const AlternativesBody = z
  .object({
    url: httpUrlField(2048).optional().describe("the blocked endpoint; at most 2048 characters"),
    taskClass: z
      .string({ error: "taskClass must be a string" })
      .max(80, "taskClass must be at most 80 characters")
      .refine((s) => s.trim().length > 0, "taskClass must not be blank")
      .optional()
      .describe("what the call does (matched against categories and tags, case-insensitive); fallback key when url is unknown, or alone"),
    limit: z
      .number({ error: "limit must be an integer from 1 to 10" })
      .int("limit must be an integer from 1 to 10")
      .min(1, "limit must be at least 1")
      .max(10, "limit must be at most 10")
      .default(5),
  })
  .refine((b) => b.url !== undefined || b.taskClass !== undefined, { message: "at least one of url or taskClass is required" });

const AlternativeItem = z.object({
  url: z.string(),
  service: z.string(),
  service_id: z.string(),
  provider: z.string().nullable(),
  domain: z.string().nullable(),
  category: z.string().nullable(),
  price_usdc: z.string().nullable(),
  currency: z.string().nullable(),
  uptime_1h_pct: percent().nullable(),
  uptime_7d_pct: percent().nullable(),
  avg_latency_1h_ms: z.number().int().nullable(),
  match_reason: z.enum(MATCH_REASONS),
});

export const AlternativesSchema = z.object({
  target: z
    .object({
      url: z.string().optional(),
      known: z.boolean().optional(),
      task_class: z.string().optional(),
      service: z.string().optional(),
      service_id: z.string().optional(),
      provider: z.string().nullable().optional(),
      domain: z.string().nullable().optional(),
      category: z.string().nullable().optional(),
      price_usdc: z.string().nullable().optional(),
      currency: z.string().nullable().optional(),
    })
    .describe("the catalog row of a known URL; {url, known:false} for an unknown one; {task_class} when only taskClass was given"),
  match_strategy: z.enum(["url_target", "task_class_only", "url_target_unknown_fallback"]),
  alternatives: z.array(AlternativeItem),
  candidate_count: z.number().int().describe("eligible candidates before the limit"),
});

// ---- catalog/decoys -------------------------------------------------------------------------

const Reason = z.enum(BLACKLIST_REASONS);
const HostGroup = (checkedAt: "wildcard_402_checked_at" | "spa_fallback_checked_at") =>
  z.object({
    service_id: z.string(),
    service_name: z.string(),
    provider: z.string().nullable(),
    raw_count: z.number().int().describe("listed paths on the host"),
    effective_count: z.number().int().describe("real supply: sitemap or manifest count, else 1"),
    synthetic_count: z.number().int().describe("raw_count minus effective_count"),
    [checkedAt]: dateTime().nullable(),
  });

export const BlacklistSchema = z.object({
  generated_at: dateTime(),
  counts: z.object({
    total: z.number().int(),
    by_reason: z.record(z.string(), z.number().int()),
    wildcard_402_services: z.number().int(),
    spa_fallback_services: z.number().int(),
  }),
  truncated: z.boolean().describe("true when the MAX_ENTRIES cap cut the result"),
  wildcard_402_hosts: z.array(HostGroup("wildcard_402_checked_at")),
  spa_fallback_hosts: z.array(HostGroup("spa_fallback_checked_at")),
  entries: z.array(
    z.object({
      url: z.string(),
      service_id: z.string(),
      service_name: z.string(),
      provider: z.string().nullable(),
      price_usdc: z.string().nullable(),
      currency: z.string().nullable(),
      reasons: z.array(Reason),
      probes_7d: z.number().int(),
      healthy_7d: z.number().int(),
      uptime_7d_pct: percent().int().nullable(),
      last_probe_at: dateTime().nullable(),
      wildcard_402_detected: z.boolean(),
      spa_fallback_detected: z.boolean(),
      wildcard_402_checked_at: dateTime().nullable(),
      spa_fallback_checked_at: dateTime().nullable(),
    }),
  ),
});

// ---- whats-new ------------------------------------------------------------------------------

const Endpoint = {
  url: z.string(),
  service_id: z.string(),
  service_name: z.string(),
  provider: z.string().nullable(),
  domain: z.string().nullable(),
  category: z.string().nullable(),
  price_usdc: z.string().nullable(),
  currency: z.string().nullable(),
};

export const WhatsNewSchema = z.object({
  since: dateTime(),
  until: dateTime(),
  window_hours: z.number(),
  added_endpoints: z.array(z.object({ ...Endpoint, first_seen_at: dateTime() })),
  removed_endpoints: z.array(z.object({ ...Endpoint, last_seen_at: dateTime() })),
  summary: z.object({
    added_endpoints_count: z.number().int(),
    removed_endpoints_count: z.number().int(),
    added_services_count: z.number().int(),
    removed_services_count: z.number().int(),
    polls_in_window: z.number().int(),
    current_active_endpoints: z.number().int(),
    current_active_services: z.number().int(),
    first_poll_at: dateTime().nullable(),
    last_poll_at: dateTime().nullable(),
  }),
  truncated: z.boolean(),
  limit: z.number().int(),
});

export const WhatsNewBody = z.object({
  since: z
    .string({ error: "since must be an ISO 8601 date-time string" })
    .datetime({ offset: true, error: "since must be an ISO 8601 date-time such as 2026-11-20T12:00:00Z" })
    .optional()
    .describe("default: now minus 24 hours; at most 30 days back; not in the future"),
  limit: z
    .number({ error: "limit must be an integer from 1 to 500" })
    .int("limit must be an integer from 1 to 500")
    .min(1, "limit must be at least 1")
    .max(500, "limit must be at most 500")
    .default(WHATS_NEW_LIMIT.default)
    .describe("cap applied to each list separately"),
});
