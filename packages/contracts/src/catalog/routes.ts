import { z } from "zod";
import { AlternativesBody, AlternativesSchema, BlacklistSchema, WhatsNewBody, WhatsNewSchema } from "./schemas.js";
import { defineContract } from "../contract.js";

export const decoysContract = defineContract({
  id: "catalog-decoys",
  method: "post",
  path: "/api/v1/catalog/decoys",
  price: "0.005",
  product: "Decoy Blacklist",
  title: "Decoy blacklist",
  summary: "Every listed endpoint that is a decoy, a zombie, dead for 7 days or mostly dead, with the evidence.",
  description:
    "The catalog's blacklist: active listings with a blacklist reason (decoy_price_extreme, zombie, dead_7d, mostly_dead), most severe first then by URL, so two calls without a catalog change return the same bytes apart from generated_at. Capped at MAX_ENTRIES (default 5000) with `truncated`. Also lists, per service, the hosts that answer x402 challenges (wildcard_402_hosts) or an HTML app shell (spa_fallback_hosts) for any path, with their raw, effective and synthetic listing counts. The list is the state of the last verdict recompute (every 30 s).",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: BlacklistSchema,
  errors: [{ status: 503, when: "the database timed out; nothing was settled" }],
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
    "Give the blocked `url`, a `taskClass`, or both. Candidates match, in priority order, the same service, the same provider (payee), the same registrable domain, the same category or task class (category or tag, case-insensitive), or a similar price (within a factor of 3) inside the target's category, or sharing one of its own tags when it has none. A category counts only where it names what the listing is: none, other, or one only a later umbrella tag gives (tags [translation, ai]) is not matched on. The target itself, candidates dead over 7 days, erroring over the last hour, never seen healthy, or carrying a critical warning are excluded.\n\nWithin a match tier, candidates rank by 7-day uptime (higher first), then 1-hour latency (lower first). As a single number: score = (5 - tier) x 1000 + uptime_7d_pct x 5 - min(avg_latency_1h_ms, 10000) / 100, where tier is 0 for same_service to 4 for similar_price; higher is better. match_strategy says how the target was read: url_target (a catalogued URL), task_class_only, or url_target_unknown_fallback (an unknown URL: its domain and the task class are used). Eligibility and ranking are those of the last verdict recompute (every 30 s).",
  body: AlternativesBody,
  response: AlternativesSchema,
  errors: [
    { status: 400, when: "neither url nor taskClass; url not http(s) or over 2048 characters; taskClass blank or over 80 characters; limit outside 1..10" },
    { status: 404, when: "no healthy alternative exists for the URL or task class" },
    { status: 503, when: "the 8 s database budget ran out; nothing was settled" },
  ],
});

export const whatsNewContract = defineContract({
  id: "whats-new",
  method: "post",
  path: "/api/v1/whats-new",
  price: "0.001",
  product: "Catalog Diff",
  title: "What's new in the catalog",
  summary: "Endpoints added to and removed from the catalog since a moment, with poll statistics.",
  description:
    "Added endpoints were first seen since `since` and are still listed; removed endpoints were delisted since `since` (a complete catalog poll no longer had them). Each list is capped at `limit` (newest first) and `truncated` says whether more existed. The catalog is ingested about every 5 minutes, so polling more often returns identical data. A reference summary in short form reads {added, removed}; the schema names are added_endpoints_count and removed_endpoints_count. Counts and lists are those of the catalog at the last verdict recompute (every 30 s).",
  body: WhatsNewBody,
  bodyOptional: true,
  response: WhatsNewSchema,
  errors: [
    { status: 400, when: "since invalid, older than 30 days or in the future; limit outside 1..500" },
    { status: 503, when: "the database timed out; nothing was settled" },
  ],
});
