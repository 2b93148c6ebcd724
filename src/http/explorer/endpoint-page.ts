import { html } from "hono/html";
import type { EndpointHistory } from "../../services/index.js";
import { copyScript } from "../pages/try-it.js";
import { layout, type Html } from "../pages/layout.js";
import { timeAt } from "../pages/time-words.js";
import { latencyChart } from "./charts/latency-chart.js";
import { statusCodesTable } from "./charts/status-codes.js";
import { uptimeBar, uptimeLegend } from "./charts/uptime-bar.js";
import { badgesSection, moreSection } from "./endpoint-extras.js";
import { certificatesSection, flagsSection, quotesSection } from "./endpoint-records.js";
import { verdictSection } from "./endpoint-verdict.js";
import { vantagesSection } from "./endpoint-vantages.js";
import { deliveriesSection } from "./endpoint-deliveries.js";
import { payerReportsSection } from "./endpoint-payer-reports.js";
import { settlementsSection } from "./endpoint-settlements.js";
import { LIST_STYLE } from "./list-table.js";
import { providerHref, serviceHref } from "./list-links.js";

/** The page's CSS: static text, never request data. */
const STYLE = `${LIST_STYLE}
.facts th{width:9rem}.uptime-bar,.latency-chart{display:block;height:auto;margin:.6rem 0}.uptime-bar{height:34px;width:100%}
.legend svg{vertical-align:middle;margin-left:.6rem}.codes .bar{display:block;width:100%;height:.7rem;fill:var(--muted)}
.uptime-bar rect[tabindex]:focus{outline:2px solid var(--link);outline-offset:1px;stroke:var(--fg);stroke-width:1}.bar-detail{min-height:1.5em;margin:.2rem 0}
.latency-chart g[font-size]{fill:var(--muted)}.latency-chart line{stroke:var(--muted)}.latency-chart line[stroke="#eaeef2"]{stroke:var(--soft)}.latency-chart .p50{stroke:var(--fg)}.latency-chart .p90{stroke:var(--link)}
.said{font-size:1.1rem}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.line-p50{border-top:2px solid var(--fg)}.line-p90{border-top:2px dashed var(--link)}.line-p50,.line-p90{display:inline-block;width:1.5rem;vertical-align:middle}
.volume-chart{display:block;width:100%;height:40px;margin:.4rem 0}.volume-chart rect{fill:var(--link)}
.report-failed td:first-child{border-left:4px solid var(--bad)}.report-failed strong{color:var(--bad)}.reports code{white-space:nowrap}
`;

const pct = (v: number | null) => (v === null ? "no data" : `${v}%`);
const ms = (v: number | null) => (v === null ? "no data" : `${v} ms`);

/** GET /endpoints/{id}: one endpoint's verdict and 7 days of hourly aggregates, charts drawn here. */
export function endpointPage(h: EndpointHistory, base: string): Html {
  const e = h.endpoint;
  const facts = html`<table class="facts"><tbody>
<tr><th scope="row">URL</th><td><code>${e.method} ${e.url}</code></td></tr>
<tr><th scope="row">service</th><td><a href="${serviceHref(e.serviceId)}">${e.service}</a></td></tr>
<tr><th scope="row">provider</th><td>${e.providerId ? html`<a href="${providerHref(e.providerId)}">${e.provider}</a>` : "unknown"}</td></tr>
<tr><th scope="row">category</th><td>${e.category ?? "none"}</td></tr><tr><th scope="row">network</th><td>${e.network ?? "unknown"}</td></tr>
<tr><th scope="row">price</th><td class="price">${e.priceUsdc === null ? "unknown" : `${e.priceUsdc} USDC`}</td></tr>
<tr><th scope="row">listed since</th><td>${timeAt(e.firstSeenAt, h.observedAt)}${e.isActive ? "" : " (no longer listed)"}</td></tr>
</tbody></table>`;
  return layout(
    `${e.service}: ${e.url}`,
    html`<h1>${e.service}</h1><p class="url"><code>${e.method} ${e.url}</code></p>${facts}
${verdictSection(h.verdict, e.isActive)}
<section id="uptime"><h2>Uptime, last 7 days by hour</h2><p>7-day uptime: <strong id="uptime-7d">${pct(h.uptime7dPct)}</strong>. Tap or hover a bar for its hour; from the keyboard, tab to the bar and move with the arrow keys.</p>
${uptimeBar(h.hourly)}${uptimeLegend}</section>${settlementsSection(h)}
<section id="latency"><h2>Latency, last 7 days by hour</h2><p>7-day average: <strong id="latency-avg">${ms(h.avgLatency7dMs)}</strong>.
<span class="line-p50"></span> p50 (solid) <span class="line-p90"></span> p90 (dashed). Each hour's p50 and p90 are also in its uptime bar's details.</p>${latencyChart(h.hourly)}</section>
<section id="status"><h2>Status codes, last 7 days</h2>${statusCodesTable(h.statusCodes)}</section>${vantagesSection(h)}${deliveriesSection(h)}${payerReportsSection(h)}
${quotesSection(h)}${flagsSection(h)}${certificatesSection(h)}${badgesSection(h, base)}${moreSection(h)}
<p class="muted">Observed ${timeAt(h.observedAt, h.observedAt)}. Hourly aggregates only: the probe-by-probe series is not public.</p>${copyScript}`,
    { style: STYLE },
  );
}
