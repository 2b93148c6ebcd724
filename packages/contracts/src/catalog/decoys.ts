import { z } from "zod";
import { BLACKLIST_REASONS } from "../codes.js";
import { dateTime, percent } from "../common.js";
import { defineContract } from "../contract.js";

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

export const decoysContract = defineContract({
  id: "catalog-decoys",
  method: "post",
  path: "/api/v1/catalog/decoys",
  price: "0.005",
  product: "Decoy Blacklist",
  title: "Decoy blacklist",
  summary: "Every listed endpoint that is a decoy, a zombie, dead for 7 days or mostly dead, with the evidence.",
  description:
    "The catalog's blacklist: active listings with a blacklist reason (" +
    BLACKLIST_REASONS.join(", ") +
    "), most severe first then by URL, so two calls without a catalog change return the same bytes apart from generated_at. Capped at MAX_ENTRIES (default 5000) with `truncated`. Also lists, per service, the hosts that answer x402 challenges (wildcard_402_hosts) or an HTML app shell (spa_fallback_hosts) for any path, with their raw, effective and synthetic listing counts. The list is the state of the last verdict recompute (every 30 s).",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: BlacklistSchema,
  errors: [{ status: 503, when: "the database timed out; nothing was settled" }],
  examples: {
    request: {},
    response: {
      generated_at: "2026-11-20T12:00:00.000Z",
      counts: { total: 1, by_reason: { decoy_price_extreme: 1, zombie: 0, dead_7d: 0, mostly_dead: 0 }, wildcard_402_services: 0, spa_fallback_services: 0 },
      truncated: false,
      wildcard_402_hosts: [],
      spa_fallback_hosts: [],
      entries: [
        {
          url: "https://premium-signals.example/api/alpha",
          service_id: "premium-alpha-signals",
          service_name: "Premium Alpha Signals",
          provider: "Premium Alpha Signals",
          price_usdc: "2500",
          currency: "USDC",
          reasons: ["decoy_price_extreme"],
          probes_7d: 1008,
          healthy_7d: 1008,
          uptime_7d_pct: 100,
          last_probe_at: "2026-11-20T11:58:10.000Z",
          wildcard_402_detected: false,
          spa_fallback_detected: false,
          wildcard_402_checked_at: "2026-11-20T03:12:44.000Z",
          spa_fallback_checked_at: "2026-11-20T03:12:44.000Z",
        },
      ],
    },
  },
});
