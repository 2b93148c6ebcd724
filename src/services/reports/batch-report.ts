import type { z } from "@hono/zod-openapi";
import type { BatchEnvelopeSchema } from "@x402-lookout/contracts/preflight/schemas";
import { atomicToUsdc, usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { ESTABLISHED } from "../signals/constants.js";
import { viewOf } from "../evidence/index.js";
import { deliveryView } from "./delivery-view.js";
import { evidenceOf, metadataOf, type Subject } from "./preflight-report.js";

export type BatchEnvelope = z.infer<typeof BatchEnvelopeSchema>;
export const BATCH_PRICE = "0.025";

/** A track record: enough probes this week and a service older than a week. */
const established = (s: Subject, now: Date) =>
  s.input.known &&
  s.input.probes7d >= ESTABLISHED.minProbes7d &&
  s.input.serviceSince !== null &&
  now.getTime() - s.input.serviceSince.getTime() >= ESTABLISHED.minServiceAgeMs;

/** The endpoint's last naked request (no payment) was answered 2xx: callable without paying. */
const hasFreeTrial = (s: Subject) => {
  const code = s.row?.last_status_code;
  return code !== null && code !== undefined && code >= 200 && code < 300;
};

/** One element per deduplicated URL (input order), summary, price per URL (/spec#preflight-batch). */
export function batchEnvelope(items: Array<{ url: string; subject: Subject }>, now: Date, base: string): BatchEnvelope {
  const results = items.map(({ url, subject }) => {
    const verdict = viewOf(subject.fired, subject.input, "preflight");
    const { proxy_markup: _markup, wildcard_402_detected: _wildcard, ...evidence } = evidenceOf(subject, verdict, now);
    return {
      url,
      ...verdict,
      metadata: { ...metadataOf(subject, verdict), established: established(subject, now), has_free_trial: hasFreeTrial(subject) },
      evidence,
      delivery: deliveryView(subject.row, base),
    };
  });
  // Every action is counted, zeros included, so a client reads each key without a default.
  const byAction: Record<string, number> = { pay: 0, skip: 0, use_alternatives: 0, investigate: 0 };
  for (const r of results) byAction[r.recommended_action] = (byAction[r.recommended_action] ?? 0) + 1;
  const ok = results.filter((r) => r.ok).length;
  return {
    results,
    summary: { total: results.length, ok, blocked: results.length - ok, by_recommended_action: byAction },
    observed_at: now.toISOString(),
    paid_amount: BATCH_PRICE,
    effective_price_per_url: perUrl(BATCH_PRICE, results.length),
  };
}

/** The price split over n URLs, to USDC's 6 decimals (rounded down). */
export const perUrl = (price: string, n: number): string => atomicToUsdc(BigInt(usdcToAtomic(price)) / BigInt(n));
