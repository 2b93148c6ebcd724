import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

const ATTRIBUTION: Record<string, string> = {
  listing: "its payTo has no other listing: every settlement to it counts here",
  amount: "its payTo is shared; the settlements of exactly its price count here",
  pay_to: "its payTo is shared and its price is not its own: the payTo's settlements no price explains count here",
};

/**
 * Paid volume beside uptime (decision 0052): what the chain shows was paid to the endpoint, with
 * the last 30 days as a bar per day. Numbers and addresses only, each escaped by the template.
 */
export function settlementsSection(h: EndpointHistory): Html {
  const s = h.settlements;
  if (!s)
    return html`<section id="paid-volume"><h2>Paid volume on chain</h2><p class="muted">Not indexed: its payTo is on another network, or still being read from 30 days back.</p></section>`;
  const top = Math.max(1, ...s.daily.map((d) => d.calls));
  const bars = s.daily.map(
    (d, i) =>
      html`<rect x="${i * 10}" y="${40 - Math.round((d.calls / top) * 40)}" width="8" height="${Math.round((d.calls / top) * 40)}"><title>${d.day}: ${d.calls} calls, ${d.volume_usdc} USDC</title></rect>`,
  );
  const share = s.known_facilitator_share === null ? "none settled" : `${Math.round(s.known_facilitator_share * 100)}%`;
  return html`<section id="paid-volume"><h2>Paid volume on chain</h2>
<p>Settled calls: <strong id="settled-30d">${s.calls_30d}</strong> in 30 days (${s.calls_7d} in 7, ${s.calls_24h} in 24 hours), ${s.volume_usdc_30d} USDC from
<strong id="payers-30d">${s.distinct_payers_30d}</strong> distinct payers; last ${s.last_settled_at ? timeAt(new Date(s.last_settled_at), h.observedAt) : "never"}.
Sent by a known facilitator: ${share}.${s.self_dealing ? html` <strong>Self-dealing:</strong> its payTo is paid only by itself or one wallet, which is not use.` : ""}</p>
<p class="muted">Attribution: ${ATTRIBUTION[s.attribution] ?? s.attribution} (payTo <code>${s.pay_to.address}</code>: ${s.pay_to.calls_30d} settlements, ${s.pay_to.listings} listings on ${s.pay_to.hosts} hosts).</p>
<svg class="volume-chart" viewBox="0 0 300 40" role="img" aria-label="settled calls per day, last 30 days">${bars}</svg></section>`;
}
