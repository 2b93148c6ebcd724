import { html } from "hono/html";
import { SERVICE_NAME } from "../attribution.js";
import { openApiPath } from "../openapi.js";
import type { AnyRouteDef } from "../registry.js";
import { priceLabel } from "./route-sections.js";

/** The landing page's body: what the service is, where agents find it, and the routes. */
export function landing(routes: readonly AnyRouteDef[]) {
  return html`<h1>${SERVICE_NAME}</h1>
<p>Risk signals for the x402 payment ecosystem. Before your agent pays an x402 endpoint, ask whether it is a decoy priced at 1000 USDC, a zombie that always fails,
a host that answers 402 for any path, an app shell, a reseller with heavy markup, or a listing nobody ever paid. ${SERVICE_NAME} probes every catalogued endpoint
continuously and sells the evidence per call through x402 itself: no keys, no signup.</p>
<p>Read the <a href="/spec">specification</a> or the machine-readable <a href="/openapi.json">OpenAPI document</a>.
Agents find the service through <a href="/.well-known/x402">/.well-known/x402</a>, <a href="/llms.txt">/llms.txt</a> and the
<a href="/.well-known/agent-card.json">agent card</a>; certificates verify against <a href="/.well-known/jwks.json">our public keys</a>.
Aggregate probe data is published weekly under CC-BY-4.0 at <a href="/dataset">/dataset</a>.</p>
<h2>Routes</h2>
${
  routes.length === 0
    ? html`<p class="muted">No product routes are enabled in this build yet.</p>`
    : html`<table><thead><tr><th>route</th><th>price</th><th>what it does</th></tr></thead><tbody>
${routes.map((def) => {
  const label = `${def.method.toUpperCase()} ${openApiPath(def.path)}`;
  const link = def.price !== null && def.method === "post" ? html`<a href="${def.path}">${label}</a>` : html`<a href="/spec#${def.id}">${label}</a>`;
  return html`<tr><td>${link}</td><td>${priceLabel(def)}</td><td>${def.summary}</td></tr>`;
})}
</tbody></table>`
}`;
}
