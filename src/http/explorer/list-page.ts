import { html } from "hono/html";
import { LIST_WARNINGS, VERDICTS, type ListPage, type ListQuery } from "../../services/index.js";
import { layout, type Html } from "../pages/layout.js";
import { LIST_STYLE, listTable, VERDICT_WORDS } from "./list-table.js";

const FORM_STYLE = `
.filters{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:flex-end;margin:1rem 0}.filters label{display:flex;flex-direction:column;font-size:.85rem}
.filters input,.filters select{font:inherit;padding:.2rem .3rem;max-width:16rem}.filters .search{flex:1 1 16rem}.filters .search input{max-width:none}
`;

const SORTS: Record<ListQuery["sort"], string> = {
  listed: "first listed",
  uptime: "uptime 7 d",
  latency: "p50 latency",
  latency_avg: "avg latency 1 h",
  price: "price",
  volume: "paid volume 30 d",
};

const option = (value: string, label: string, current: string | undefined) =>
  html`<option value="${value}"${value === current ? html` selected` : ""}>${label}</option>`;
const select = (name: string, label: string, values: readonly string[], current: string | undefined, words: Record<string, string> = {}) =>
  html`<label>${label}<select name="${name}">${option("", "any", current)}${values.map((v) => option(v, words[v] ?? v, current))}</select></label>`;

/** The search and filters: a plain GET form, so it works without JavaScript and every result has a URL. */
function filterForm(q: ListQuery, list: Pick<ListPage, "facets">): Html {
  return html`<form class="filters" method="get" action="/endpoints" role="search">
<label class="search">Search URL, service or provider<input type="search" name="q" value="${q.q ?? ""}" maxlength="100"></label>
${select("verdict", "Verdict", VERDICTS, q.verdict, VERDICT_WORDS)}${select("warning", "Warning", LIST_WARNINGS, q.warning)}
${select("category", "Category", list.facets.categories, q.category)}${select("network", "Network", list.facets.networks, q.network)}
<label>Min price (USDC)<input name="min_price" inputmode="decimal" size="8" value="${q.minPrice ?? ""}"></label>
<label>Max price (USDC)<input name="max_price" inputmode="decimal" size="8" value="${q.maxPrice ?? ""}"></label>
<label>Sort by<select name="sort">${Object.entries(SORTS).map(([v, l]) => option(v, l, q.sort))}</select></label>
<label>Order<select name="dir">${option("asc", "ascending", q.dir)}${option("desc", "descending", q.dir)}</select></label>
<button type="submit">Show</button> <a href="/endpoints">Clear</a></form>`;
}

/** GET /endpoints: every listed endpoint, searched, filtered, sorted and paged. */
export function listPage(q: ListQuery, list: ListPage): Html {
  return layout(
    "Endpoints",
    html`<h1>Endpoints</h1>
<p class="muted">Every x402 endpoint the catalogs list, with the verdict preflight gives it now and its uptime over the last 7 days. Open an endpoint for its charts and the reasons behind its verdict.</p>
${filterForm(q, list)}
${listTable("/endpoints", q, list)}`,
    { style: LIST_STYLE + FORM_STYLE },
  );
}

/** A refused query: what was wrong, and the form to try again. */
export function badQueryPage(message: string): Html {
  return layout(
    "Endpoints: bad query",
    html`<h1>Endpoints</h1><p id="error" role="alert"><strong>This search cannot be run:</strong> ${message}.</p><p><a href="/endpoints">Start a new search</a></p>`,
    { style: LIST_STYLE },
  );
}

/** Too many searches from one address: when to come back. */
export function tooManyPage(retryAfterSeconds: number): Html {
  return layout(
    "Endpoints: too many searches",
    html`<h1>Too many searches</h1><p id="error" role="alert">This address searched the endpoint list too often. Try again in ${retryAfterSeconds} seconds.</p>
<p>The paid routes (<a href="/api/v1/verdict-snapshot">verdict snapshot</a>, <a href="/api/v1/catalog/decoys">decoys</a>) answer for the whole catalog at once.</p>`,
  );
}
