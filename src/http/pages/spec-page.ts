import { html } from "hono/html";
import { SERVICE_NAME } from "../attribution.js";
import { API_VERSION, openApiPath } from "../openapi.js";
import type { PaymentGate } from "../payment/types.js";
import type { AnyRouteDef } from "../registry.js";
import { layout, type Html } from "./layout.js";
import { routeSections } from "./route-sections.js";
import { copyScript } from "./try-it.js";
import { glossaryToc, warningGlossary } from "./warning-glossary.js";

/** The sections of /spec around the routes, in page order: [id, title]. */
const BEFORE = [
  ["overview", "Overview"],
  ["authentication", "Authentication"],
  ["provenance", "Provenance"],
  ["errors", "Errors"],
] as const;

/** /spec: the whole interface on one page, a table of contents, every route's section, the warning codes. */
export function specPage(routes: readonly AnyRouteDef[], deps: { base: string; gate: PaymentGate | undefined }): Html {
  const { base } = deps;
  return layout(
    "Specification",
    html`<h1>${SERVICE_NAME} specification</h1>
<p>Interface version ${API_VERSION} · payment protocol x402 version 2 · machine-readable: <a href="/openapi.json">OpenAPI 3.1.0</a>.</p>
<nav aria-labelledby="contents" class="toc"><h2 id="contents">Contents</h2><ol>
${BEFORE.map(([id, title]) => html`<li><a href="#${id}">${title}</a></li>`)}
<li>Routes<ol>${routes.map((def) => html`<li><a href="#${def.id}">${def.title}</a> <span class="muted"><code>${def.method.toUpperCase()} ${openApiPath(def.path)}</code> · ${def.price === null ? "free" : `${def.price} USDC`}</span></li>`)}</ol></li>
<li><a href="#warning-codes">Warning codes</a>: ${glossaryToc()}</li>
<li><a href="#versioning">Versioning</a></li>
</ol></nav>
<h2 id="overview">Overview</h2>
<p>${SERVICE_NAME} reports risk signals about x402 payment endpoints before an agent pays them: decoys priced at 1000 USDC or more, zombies whose probes all fail, hosts that answer 402 for any path, app shells, resellers with markup and listings nobody pays.
It ingests public catalogs of payable endpoints, probes every endpoint continuously, and sells the evidence per call through x402 itself.</p>
<h2 id="authentication">Authentication</h2>
<p>There are no API keys and no accounts: payment is the credential. A paid route answers an unpaid request with HTTP 402 and the x402 v2 PaymentRequired, both as the JSON body and base64-encoded in the <code>payment-required</code> header, plus <code>www-authenticate: x402</code>.
The client signs the EIP-3009 USDC transfer and repeats the request with <code>PAYMENT-SIGNATURE</code>. A 503 before settlement leaves the payment unsettled.
Prepaid credits (<code>X-Credit-Id</code>) pay for preflight while a bundle is valid.</p>
<h2 id="provenance">Provenance</h2>
<p>Product routes carry an <code>attribution</code> body field and <code>X-signal-Authority</code>, <code>X-signal-Product</code> and <code>Link: &lt;${base}/spec&gt;; rel="describedby"</code> headers.
This identifies ${SERVICE_NAME} as the source of the signals; it is not an endorsement of any merchant and not a trust guarantee.</p>
<h2 id="errors">Errors</h2>
<p>Every error answers the JSON body <code>{"error", "message", "request_id"}</code>. Malformed JSON is 400, a body over 128 KiB is 413, a non-JSON content type is 415, request headers over 16 KiB are 431, a dependency time-out is 503 and never settles a payment.</p>
${routes.map((def) => html`<h2 id="${def.id}">${def.title}</h2>${routeSections(def, deps)}`)}
${warningGlossary()}
<h2 id="versioning">Versioning</h2>
<p>The URL prefix is <code>/api/v1/</code>; <code>x402Version</code> is 2; <code>warnings</code> holds only the codes the spec enumerates, <code>reason_codes</code> every code that fired, this service's additions included (the verdict is judged on them).</p>
${copyScript}`,
  );
}
