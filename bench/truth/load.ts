import { PER_HOST_BURST, PER_HOST_CONCURRENCY, PER_HOST_RATE_PER_SECOND } from "../../src/services/probes/constants.js";
import type { ListingHistory } from "./history.js";
import type { HostLog } from "./hosts.js";
import type { Truth } from "./truth.js";

/**
 * Probes of the settled endpoints in [start, end], split by the gap to the listing's previous
 * probe: a slot brings a listing back at least half an interval later (slots.ts), so a probe
 * sooner than that is a confirmation probe. First-sight probes of new listings are not in it.
 */
export function extraLoad(truths: Iterable<Truth>, history: ReadonlyMap<string, ListingHistory>, start: number, end: number, intervalMs: number) {
  let slot = 0;
  let confirm = 0;
  let onChanged = 0;
  for (const t of truths) {
    if (t.source !== "settled" && t.source !== "refusable") continue;
    const probes = history.get(t.url)?.probes ?? [];
    probes.forEach((p, i) => {
      if (p.at < start || p.at > end) return;
      const gap = i === 0 ? Infinity : p.at - probes[i - 1]!.at;
      if (gap >= intervalMs / 2) return void slot++;
      confirm++;
      if (t.timeline.length > 1) onChanged++;
    });
  }
  return { slot, confirm, onChanged };
}

/**
 * Each bench host's requests as its server saw them, against the prober's per-host limits: the
 * most in flight at once (PER_HOST_CONCURRENCY) and the most that arrived in any one second
 * (PER_HOST_BURST + PER_HOST_RATE_PER_SECOND). Also, for information, the arrivals a strict token
 * bucket started full at the first arrival would have held back: the limiter takes a token when
 * it grants a request, and a request granted just before the prober's event loop stalls reaches
 * the host together with those granted after the stall, so a fraction of a request shows there.
 */
export function politeness(hosts: readonly HostLog[], start: number) {
  let requests = 0;
  let maxInFlight = 0;
  let maxPerSecond = 0;
  let early = 0;
  let maxExcess = 0;
  let worst = "";
  hosts.forEach((h, host) => {
    const at = [...h.arrivals].sort((a, b) => a - b);
    requests += at.length;
    maxInFlight = Math.max(maxInFlight, h.maxInFlight);
    let lo = 0;
    let tokens = PER_HOST_BURST;
    let last = at[0] ?? 0;
    at.forEach((t, i) => {
      while (at[lo]! <= t - 1000) lo++;
      maxPerSecond = Math.max(maxPerSecond, i - lo + 1);
      tokens = Math.min(PER_HOST_BURST, tokens + ((t - last) / 1000) * PER_HOST_RATE_PER_SECOND) - 1;
      last = t;
      if (tokens >= 0) return;
      early++;
      if (-tokens > maxExcess) [maxExcess, worst] = [-tokens, `host ${host} at +${((t - start) / 1000).toFixed(1)} s`];
    });
  });
  const ok = maxInFlight <= PER_HOST_CONCURRENCY && maxPerSecond <= PER_HOST_BURST + PER_HOST_RATE_PER_SECOND;
  return {
    ok,
    line:
      `${hosts.length} bench hosts, ${requests} requests: most in flight at once ${maxInFlight} (limit ${PER_HOST_CONCURRENCY}), ` +
      `most in any one second ${maxPerSecond} (limit ${PER_HOST_BURST + PER_HOST_RATE_PER_SECOND}: burst ${PER_HOST_BURST} + ${PER_HOST_RATE_PER_SECOND}/s); ` +
      `replayed through a strict token bucket, ${early} arrivals came early, by at most ${maxExcess.toFixed(2)} of a request${worst ? ` (${worst})` : ""}`,
  };
}
