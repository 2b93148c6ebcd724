import { z } from "zod";
import type { ProbeOutcome } from "../../../db/schema.js";
import type { ProbeRecord } from "../../evidence/index.js";
import { tryNormalizeHttpUrl } from "../../../lib/url-normalize.js";
import { DEFAULT_METHOD, HTTP_METHODS } from "../constants.js";

/**
 * One line of the probe history format (NDJSON), shared with other monitors:
 *   {"url", "method", "at", "status" | "network_error", "latency_ms", "price_usdc"}
 * read as the listing it names and its probe record (the listing found by the import).
 */
export interface ProbeLine {
  url: string;
  urlNormalized: string;
  method: string;
  probe: Omit<ProbeRecord, "listingId">;
}

/** A probe imported from elsewhere may arrive this far ahead of our clock (clock skew). */
const MAX_FUTURE_MS = 5 * 60_000;
const DECIMAL = /^\d+(\.\d{1,6})?$/;

const price = z.union([z.string(), z.number().nonnegative()]).transform((v, ctx) => {
  const text = typeof v === "number" ? v.toFixed(6).replace(/\.?0+$/, "") : v.trim();
  if (typeof v === "number" && Math.abs(Number(text) - v) > 1e-9) ctx.addIssue({ code: "custom", message: "has more than 6 decimals" });
  else if (!DECIMAL.test(text)) ctx.addIssue({ code: "custom", message: "must be a non-negative decimal with at most 6 decimals" });
  return text;
});

const lineSchema = z
  .object({
    url: z.string().refine((u) => tryNormalizeHttpUrl(u) !== undefined, "must be an absolute http(s) URL"),
    method: z
      .string()
      .transform((m) => m.trim().toUpperCase())
      .pipe(z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(", ")}` }))
      .default(DEFAULT_METHOD),
    at: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time with a time zone" }),
    status: z.number().int().min(100).max(599).optional(),
    network_error: z.string().trim().min(1).max(64).optional(),
    latency_ms: z.number().int().min(0).nullish(),
    price_usdc: price.nullish(),
  })
  .refine((l) => (l.status === undefined) !== (l.network_error === undefined), "needs exactly one of status and network_error");

/**
 * healthy = a 402 challenge or a 2xx (signals.md); a target the SSRF guard refused is `blocked`,
 * as the prober stores it (decision 0037); a 400 or 422 is `needs_input` (decision 0046; the line
 * carries no challenge, and a prober's 400 with one is rare enough to read alike); everything else is an error.
 */
export function outcomeOfStatus(status: number | null, networkError: string | null = null): ProbeOutcome {
  if (status !== null && (status === 402 || (status >= 200 && status <= 299))) return "healthy";
  if (status === 400 || status === 422) return "needs_input";
  return networkError === "ssrf_blocked" ? "blocked" : "error";
}

/** A parsed line, or the reason it is bad (without the line number). */
export function parseProbeLine(text: string, now: Date): { ok: true; line: ProbeLine } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not valid JSON" };
  }
  const parsed = lineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return { ok: false, reason: `${field}${issue?.message ?? "invalid"}` };
  }
  const l = parsed.data;
  const at = new Date(l.at);
  if (at.getTime() > now.getTime() + MAX_FUTURE_MS) return { ok: false, reason: "at: lies in the future" };
  const statusCode = l.status ?? null;
  return {
    ok: true,
    line: {
      url: l.url,
      urlNormalized: tryNormalizeHttpUrl(l.url)!,
      method: l.method,
      // Another monitor's history carries no terms and no request profile.
      probe: {
        probedAt: at,
        outcome: outcomeOfStatus(statusCode, l.network_error ?? null),
        statusCode,
        errorKind: l.network_error ?? null,
        latencyMs: l.latency_ms ?? null,
        priceUsdc: l.price_usdc ?? null,
        challengeVersion: null,
        quote: null,
        profile: null,
      },
    },
  };
}
