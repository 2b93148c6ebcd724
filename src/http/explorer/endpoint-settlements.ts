import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";

type Shown = NonNullable<EndpointHistory["settlements"]>;

/** How the payTo's settlements were given to this listing, in words (summary.ts's attribution). */
function attribution(s: Shown): string {
  const others = s.pay_to.listings - 1;
  if (s.attribution === "listing") return "one listing on this payTo: every settlement to it counts here";
  if (s.attribution === "amount") return `by its price among ${s.pay_to.listings} listings on this payTo: the settlements of exactly its price count here`;
  return `shared with the payTo's ${others} other listing${others === 1 ? "" : "s"}: its price is not its own, so the settlements no price explains count here`;
}

/**
 * Paid volume beside uptime (decision 0052): what the chain shows was paid to the endpoint, with
 * the last 30 days as a bar per day. Numbers and addresses only, each escaped by the template.
 */
export function settlementsSection(h: EndpointHistory): Html {
  const s = h.settlements;
  if (!s)
    return html`<section id="paid-volume"><h2>Paid volume (on chain)</h2><p class="muted">Not indexed: its payTo is on another network, or still being read from 30 days back.</p></section>`;
  const top = Math.max(1, ...s.daily.map((d) => d.calls));
  const bars = s.daily.map((d, i) => {
    const height = Math.round((d.calls / top) * 40);
    return html`<rect x="${i * 10}" y="${40 - height}" width="8" height="${height}"><title>${d.day}: ${d.calls} calls, ${d.volume_usdc} USDC</title></rect>`;
  });
  const share = s.known_facilitator_share === null ? "no settlement in 30 days" : `${Math.round(s.known_facilitator_share * 100)}% sent by a known facilitator`;
  return html`<section id="paid-volume"><h2>Paid volume (on chain)</h2>
<table class="facts"><tbody>
<tr><th scope="row">settled calls</th><td><strong id="settled-30d">${s.calls_30d}</strong> in 30 days, <span id="settled-7d">${s.calls_7d}</span> in 7, <span id="settled-24h">${s.calls_24h}</span> in 24 hours</td></tr>
<tr><th scope="row">volume 30 d</th><td class="price" id="volume-30d">${s.volume_usdc_30d} USDC</td></tr>
<tr><th scope="row">payers 30 d</th><td><strong id="payers-30d">${s.distinct_payers_30d}</strong> distinct wallets</td></tr>
<tr><th scope="row">last settlement</th><td>${timeAt(s.last_settled_at ? new Date(s.last_settled_at) : null, h.observedAt)}</td></tr>
<tr><th scope="row">facilitators</th><td id="facilitator-share">${share}</td></tr>
<tr><th scope="row">attribution</th><td id="attribution">${attribution(s)} (payTo <code>${s.pay_to.address}</code>: ${s.pay_to.calls_30d} settlements in 30 days, ${s.pay_to.listings} listings on ${s.pay_to.hosts} hosts)</td></tr>
</tbody></table>${s.self_dealing ? html`<p id="self-dealing"><strong>Self-dealing:</strong> its payTo is paid only by itself or one wallet again and again: these settlements are not use.</p>` : ""}
<svg class="volume-chart" viewBox="0 0 300 40" preserveAspectRatio="none" role="img" aria-label="settled calls per UTC day, last 30 days, oldest left: ${s.calls_30d} in all">${bars}</svg>
<p class="muted">Settled calls per UTC day, the last 30 days (oldest left). Read from the chain up to block ${s.indexed_to_block}.</p></section>`;
}
