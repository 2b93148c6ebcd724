import { html } from "hono/html";
import { WARNING_GLOSSARY } from "@x402-lookout/contracts/glossary";
import type { WarningCode } from "@x402-lookout/contracts/codes";
import { EXPLORER, type ExplorerRow, type ListPage, type ListQuery, type SortKey } from "../../services/index.js";
import type { Html } from "../pages/layout.js";
import { sparkline } from "./charts/sparkline.js";
import { endpointHref, pageHref, providerHref, serviceHref, sortHref } from "./list-links.js";

/** The list's CSS: static text, never request data. */
export const LIST_STYLE = `
.list{font-size:.9rem}.list td{vertical-align:middle}.list .url{word-break:break-all}.list .sub{font-size:.8rem}
.verdict{display:inline-block;padding:0 .45rem;border-radius:3px;font-weight:600;font-size:.8rem;white-space:nowrap}
.v-pay{background:#dafbe1;color:#116329}.v-investigate{background:#fff8c5;color:#7d4e00}.v-use_alternatives{background:#ffe2cc;color:#953800}
.v-skip{background:#ffebe9;color:#a40e26}.v-none{background:#eaeef2;color:#424a53}.num{text-align:right;white-space:nowrap}
.pager{display:flex;gap:1rem;align-items:center;margin:1rem 0}.table-wrap{overflow-x:auto}
`;

/** Each verdict filter's words; `unjudged` is a listing no verdict pass reached yet. */
export const VERDICT_WORDS: Record<string, string> = {
  pay: "pay",
  investigate: "investigate",
  use_alternatives: "use alternatives",
  skip: "skip",
  unjudged: "not judged yet",
};

export function verdictBadge(r: Pick<ExplorerRow, "action">): Html {
  const words = VERDICT_WORDS[r.action ?? "unjudged"] ?? r.action;
  return html`<span class="verdict v-${r.action ?? "none"}">${words}</span>`;
}

const warningTag = (w: string) => html`<span class="tag" title="${WARNING_GLOSSARY[w as WarningCode]?.meaning ?? w}">${w}</span> `;
const pct = (v: number | null) => (v === null ? "no data" : `${v}%`);
const ms = (v: number | null) => (v === null ? "no data" : `${v} ms`);
const paid = (r: { settledCalls30d: number | null; volumeUsdc30d: number | null }) =>
  r.settledCalls30d === null ? "not indexed" : `${r.volumeUsdc30d ?? 0} (${r.settledCalls30d} calls)`;

/** The rows of a list page with sortable headers (links) and the pager; `path` is the page the links stay on. */
export function listTable(path: string, q: ListQuery, list: ListPage): Html {
  const head = (label: string, sort: SortKey | null) => {
    if (!sort) return html`<th scope="col">${label}</th>`;
    const current = q.sort === sort;
    const aria = current ? (q.dir === "asc" ? "ascending" : "descending") : "none";
    return html`<th scope="col" aria-sort="${aria}"><a href="${sortHref(path, q, sort)}">${label}${current ? (q.dir === "asc" ? " ▲" : " ▼") : ""}</a></th>`;
  };
  if (list.total === 0) return html`<p id="empty">No endpoint matches.</p>`;
  return html`<div class="table-wrap" tabindex="0"><table class="list" id="endpoints"><thead><tr>${head("Endpoint", "listed")}${head("Verdict", null)}${head("Price (USDC)", "price")}${head("Uptime 7 d", "uptime")}${head("Last 7 days", null)}${head("p50 latency 7 d", "latency")}${head("Avg latency 1 h", "latency_avg")}${head("Paid 30 d (USDC)", "volume")}</tr></thead><tbody>
${list.rows.map(
  (r) =>
    html`<tr data-id="${r.id}"><td><a class="url" href="${endpointHref(r.id)}"><code>${r.method} ${r.url}</code></a><div class="sub muted"><a href="${serviceHref(r.serviceId)}">${r.service}</a>${r.providerId ? html` · <a href="${providerHref(r.providerId)}">${r.provider}</a>` : ""}${r.category ? ` · ${r.category}` : ""}${r.network ? ` · ${r.network}` : ""}</div></td><td>${verdictBadge(r)}<div class="sub">${r.warnings.map(warningTag)}</div></td><td class="num">${r.priceUsdc ?? "unknown"}</td><td class="num">${pct(r.uptime7dPct)}</td><td>${sparkline(r.sparkline)}</td><td class="num">${ms(r.p50LatencyMs)}</td><td class="num">${ms(r.avgLatencyMs)}</td><td class="num">${paid(r)}</td></tr>`,
)}
</tbody></table></div>${pager(path, q, list)}`;
}

function pager(path: string, q: ListQuery, list: ListPage): Html {
  const first = (list.page - 1) * EXPLORER.pageSize + 1;
  const last = Math.min(list.total, list.page * EXPLORER.pageSize);
  const capped = list.total > EXPLORER.pageSize * EXPLORER.maxPage;
  return html`<nav class="pager" aria-label="Pages">${list.page > 1 ? html`<a rel="prev" href="${pageHref(path, q, list.page - 1)}">← Previous</a>` : ""}
<span id="showing">${first > last ? "No endpoints on this page" : `Endpoints ${first} to ${last} of ${list.total}`} (page ${list.page} of ${list.pages})</span>
${list.page < list.pages ? html`<a rel="next" href="${pageHref(path, q, list.page + 1)}">Next →</a>` : ""}</nav>
${capped ? html`<p class="muted">Pages stop at ${EXPLORER.maxPage}: search or filter to reach the other endpoints.</p>` : ""}`;
}
