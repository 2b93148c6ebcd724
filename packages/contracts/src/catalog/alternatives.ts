import { z } from "zod";
import { MATCH_REASONS } from "../codes.js";
import { httpUrlField, percent } from "../common.js";
import { defineContract } from "../contract.js";
import { SCORE_FORMULA } from "./alternative-score.js";

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
  score: z.number().describe(`${SCORE_FORMULA}, where tier is 0 for same_service to 4 for similar_price; higher is better, and items are in its order`),
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

export const alternativesContract = defineContract({
  id: "alternatives",
  method: "post",
  path: "/api/v1/alternatives",
  price: "0.005",
  product: "Alternatives",
  title: "Safe alternatives",
  summary: "Healthy substitutes for a blocked endpoint, or for a kind of task.",
  description:
    "Give the blocked `url`, a `taskClass`, or both. Candidates match, in priority order, the same service, the same provider (payee), the same registrable domain, the same category or task class (category or tag, case-insensitive), or a similar price (within a factor of 3) inside the target's category, or sharing one of its own tags when it has none. A category counts only where it names what the listing is: none, other, or one only a later umbrella tag gives (tags [translation, ai]) is not matched on. The target itself, candidates dead over 7 days, erroring over the last hour, never seen healthy, or carrying a critical warning are excluded.\n\nWithin a match tier, candidates rank by 7-day uptime (higher) and 1-hour latency (lower), as each item's `score` says: " +
    SCORE_FORMULA +
    ", where tier is 0 for same_service to 4 for similar_price (1 % of uptime weighs as 500 ms; unknown uptime counts 0, unknown latency 10 s); higher is better. match_strategy says how the target was read: url_target (a catalogued URL), task_class_only, or url_target_unknown_fallback (an unknown URL: its domain and the task class are used). Eligibility and ranking are those of the last verdict recompute (every 30 s).",
  body: AlternativesBody,
  response: AlternativesSchema,
  errors: [
    { status: 400, when: "neither url nor taskClass; url not http(s) or over 2048 characters; taskClass blank or over 80 characters; limit outside 1..10" },
    { status: 404, when: "no healthy alternative exists for the URL or task class" },
    { status: 503, when: "the 8 s database budget ran out; nothing was settled" },
  ],
  examples: {
    request: { url: "https://dead.example/v1/forecast", limit: 2 },
    response: {
      target: {
        url: "https://dead.example/v1/forecast",
        known: true,
        service: "Skycast",
        service_id: "skycast",
        provider: "Skycast Labs",
        domain: "dead.example",
        category: "weather",
        price_usdc: "0.002",
        currency: "USDC",
      },
      match_strategy: "url_target",
      alternatives: [
        {
          url: "https://weather.example/v1/forecast",
          service: "Skycast",
          service_id: "skycast",
          provider: "Skycast Labs",
          domain: "weather.example",
          category: "weather",
          price_usdc: "0.002",
          currency: "USDC",
          uptime_1h_pct: 100,
          uptime_7d_pct: 99.8,
          avg_latency_1h_ms: 120,
          match_reason: "same_service",
          score: 5497.8,
        },
      ],
      candidate_count: 4,
    },
  },
});
