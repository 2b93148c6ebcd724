import { html } from "hono/html";
import { SERVICE_NAME } from "../attribution.js";
import { openApiPath } from "../openapi.js";
import type { AnyRouteDef } from "../registry.js";
import type { Services } from "../../services/index.js";
import { checkForm, CHECK_STYLE } from "./check-form.js";
import { glossaryOf } from "./check-verdict.js";
import type { Html } from "./layout.js";
import { timeAt } from "./time-words.js";
import { LANDING_BOUND_S } from "../explorer/cache.js";

export type Figures = Awaited<ReturnType<Services["overview"]["figures"]>>;

export const LANDING_STYLE = `${CHECK_STYLE}
.glance{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.6rem;margin:.6rem 0;padding:0}
.glance div{border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem}.glance dt{color:var(--muted);font-size:.9rem}.glance dd{margin:0;font-size:1.5rem;font-weight:600}
.reasons{columns:16rem;padding-left:1.2rem}.routes td:nth-child(-n+2) a,.routes td:nth-child(2){white-space:nowrap;overflow-wrap:normal}
`;

const priceOf = (def: AnyRouteDef) => (def.price === null ? "free" : `${def.price} USDC`);
/** The summary's first sentence: the table keeps one line per route, the reference page has the rest. */
const oneLine = (summary: string) => summary.split(/(?<=\.)\s/)[0];

/** The landing page's body: the service at a glance from live figures, the check form, and the routes. */
export function landing(routes: readonly AnyRouteDef[], f: Figures, now: Date): Html {
  return html`<h1>${SERVICE_NAME}</h1>
<p>Risk signals for x402 payment endpoints: ${SERVICE_NAME} probes every catalogued endpoint continuously and tells your agent, before it pays,
whether the endpoint is a decoy, a zombie, an app shell or a reseller. The evidence is sold per call through x402 itself: no keys, no signup.
<a href="/endpoints">Browse every endpoint</a>, or read the <a href="/spec">specification</a>.</p>
<h2 id="glance">At a glance</h2>
<dl class="glance">
<div><dt>Endpoints watched</dt><dd id="watched"><a href="/endpoints">${f.watched}</a></dd></div>
<div><dt>Flagged (preflight not ok)</dt><dd id="flagged">${f.flagged}</dd></div>
<div><dt>Probes in the last hour</dt><dd id="probes">${f.probesLastHour}</dd></div>
<div><dt>Newest verdict</dt><dd id="verdict-age">${timeAt(f.newestVerdictAt, now)}</dd></div>
<div><dt>Newest catalog poll</dt><dd id="poll-age">${timeAt(f.newestPollAt, now)}</dd></div>
</dl>
<p class="muted" id="figures-age">Figures read ${timeAt(f.at, now)}; they are never shown more than ${LANDING_BOUND_S} s old.</p>
<h3>Flagged by reason</h3>
${
  f.byCode.length === 0
    ? html`<p class="muted">No stored verdict carries a warning.</p>`
    : html`<ul class="reasons" id="reasons">${f.byCode.map(
        ({ code, count }) => html`<li><a href="/endpoints?warning=${code}">${glossaryOf(code).title}</a> <code>${code}</code>: ${count}</li>`,
      )}</ul>`
}
<h2 id="check-a-url">Check a URL</h2>
${checkForm("")}
<h2 id="routes">Routes</h2>
<p>Agents find them through <a href="/.well-known/x402">/.well-known/x402</a>, <a href="/llms.txt">/llms.txt</a> and the <a href="/openapi.json">OpenAPI document</a>;
aggregate probe data is published weekly under CC-BY-4.0 at <a href="/dataset">/dataset</a>.</p>
<div class="scroll" tabindex="0"><table class="routes"><thead><tr><th>route</th><th>price</th><th>what it does</th></tr></thead><tbody>
${routes.map((def) => {
  const label = `${def.method.toUpperCase()} ${openApiPath(def.path)}`;
  const link = def.price !== null && def.method === "post" ? html`<a href="${def.path}">${label}</a>` : html`<a href="/spec#${def.id}">${label}</a>`;
  return html`<tr><td>${link}</td><td>${priceOf(def)}</td><td>${oneLine(def.summary)}</td></tr>`;
})}
</tbody></table></div>`;
}
