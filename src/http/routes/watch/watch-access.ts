import type { WatchStatus } from "../../../services/index.js";
import { ApiError } from "../../errors.js";
import type { HandlerContext } from "../../registry.js";

/**
 * The secret as presented: `Authorization: Bearer <secret>`, else `X-Watch-Secret`, else
 * `X-X402Station-Secret` (how the x402station MCP adapter sends it, so its watch tools work here).
 * Whichever it came in, the watch service compares it in constant time.
 */
export function presentedSecret(ctx: HandlerContext): string | undefined {
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(ctx.header("authorization") ?? "");
  return bearer?.[1] ?? (ctx.header("x-watch-secret") ?? ctx.header("x-x402station-secret"))?.trim() ?? undefined;
}

/** One answer for a malformed id, an unknown id and a wrong or missing secret. */
export const watchNotFound = () => new ApiError(404, "watch_not_found", "no watch with this id and secret");

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function statusBody(s: WatchStatus) {
  return {
    watchId: s.watchId,
    state: s.state,
    url: s.url,
    webhookUrl: s.webhookUrl,
    signals: s.signals,
    createdAt: s.createdAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    unsubscribedAt: iso(s.unsubscribedAt),
    alertsRemaining: s.alertsRemaining,
    signalStates: s.signalStates.map((x) => ({ ...x, since: iso(x.since) })),
    listing: { ...s.listing, since: iso(s.listing.since) },
    deliveries: s.deliveries.map((d) => ({
      ...d,
      createdAt: d.createdAt.toISOString(),
      nextAttemptAt: iso(d.nextAttemptAt),
      deliveredAt: iso(d.deliveredAt),
    })),
  };
}
