import type { Hono } from "hono";
import { html } from "hono/html";
import type { AppContext } from "../../context.js";
import type { AppEnv } from "../app-env.js";
import { SERVICE_NAME } from "../attribution.js";
import { openApiPath, API_VERSION } from "../openapi.js";
import type { PaymentGate } from "../payment/types.js";
import type { AnyRouteDef } from "../registry.js";
import { layout } from "./layout.js";
import { priceLabel, routeSections } from "./route-sections.js";

interface PageDeps {
  ctx: AppContext;
  routes: readonly AnyRouteDef[];
  gate: PaymentGate | undefined;
}

/** The landing page, /spec, and `GET <route>` reference pages for every paid POST route. */
export function mountPages(app: Hono<AppEnv>, { ctx, routes, gate }: PageDeps): void {
  const base = ctx.config.publicBaseUrl;
  const deps = { base, gate };

  for (const def of routes) {
    if (def.price === null || def.method !== "post") continue;
    app.get(def.path, (c) => c.html(layout(def.title, html`<h1>${def.title}</h1>${routeSections(def, deps)}`)));
  }

  app.get("/", (c) => c.html(layout(SERVICE_NAME, landing(routes))));
  app.get("/spec", (c) =>
    c.html(
      layout(
        "Specification",
        html`<h1>${SERVICE_NAME} specification</h1>
<p>Interface version ${API_VERSION} · payment protocol x402 version 2 · machine-readable: <a href="/openapi.json">OpenAPI 3.1.0</a>.</p>
<h2>Overview</h2>
<p>${SERVICE_NAME} reports risk signals about x402 payment endpoints before an agent pays them: decoys priced at 1000 USDC or more, zombies whose probes all fail, hosts that answer 402 for any path, app shells, resellers with markup and listings nobody pays.
It ingests public catalogs of payable endpoints, probes every endpoint continuously, and sells the evidence per call through x402 itself.</p>
<h2>Authentication</h2>
<p>There are no API keys and no accounts: payment is the credential. A paid route answers an unpaid request with HTTP 402 and the x402 v2 PaymentRequired, both as the JSON body and base64-encoded in the <code>payment-required</code> header, plus <code>www-authenticate: x402</code>.
The client signs the EIP-3009 USDC transfer and repeats the request with <code>PAYMENT-SIGNATURE</code>. A 503 before settlement leaves the payment unsettled.
Prepaid credits (<code>X-Credit-Id</code>) pay for preflight while a bundle is valid.</p>
<h2>Provenance</h2>
<p>Product routes carry an <code>attribution</code> body field and <code>X-signal-Authority</code>, <code>X-signal-Product</code> and <code>Link: &lt;${base}/spec&gt;; rel="describedby"</code> headers.
This identifies ${SERVICE_NAME} as the source of the signals; it is not an endorsement of any merchant and not a trust guarantee.</p>
<h2>Errors</h2>
<p>Every error answers the JSON body <code>{"error", "message", "request_id"}</code>. Malformed JSON is 400, a body over 128 KiB is 413, a non-JSON content type is 415, request headers over 16 KiB are 431, a dependency time-out is 503 and never settles a payment.</p>
${routes.map((def) => html`<h2 id="${def.id}">${def.title}</h2>${routeSections(def, deps)}`)}
<h2>Versioning</h2>
<p>The URL prefix is <code>/api/v1/</code>; <code>x402Version</code> is 2; <code>reason_codes</code> is kept apart from <code>warnings</code> so future versions can diverge.</p>`,
      ),
    ),
  );
}

function landing(routes: readonly AnyRouteDef[]) {
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
