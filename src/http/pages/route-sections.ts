import { html } from "hono/html";
import { attribution } from "../attribution.js";
import type { PaymentGate, PaidRoute } from "../payment/types.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import type { AnyRouteDef } from "../registry.js";
import { json, layout, type Html } from "./layout.js";
import { schemaTable } from "./schema-table.js";
import { openApiPath } from "../openapi.js";
import { copyScript, tryIt } from "./try-it.js";

/** Examples longer than this many lines fold into <details> (open on a click, no script): the page stays scannable. */
const FOLD_LINES = 60;

function folded(label: string, value: unknown): Html {
  const lines = JSON.stringify(value, null, 2).split("\n").length;
  return lines <= FOLD_LINES ? html`<p>${label}:</p>${json(value)}` : html`<details><summary>${label} (${lines} lines)</summary>${json(value)}</details>`;
}

/** At this price and above, unconfigured x402 SDK clients refuse to pay: tell people how to raise it. */
const SDK_DEFAULT_SPEND_CAP_USDC = 1;

export interface SectionDeps {
  base: string;
  gate: PaymentGate | undefined;
}

export const priceLabel = (def: AnyRouteDef) => (def.price === null ? "free" : `${def.price} USDC (challenge amount "${usdcToAtomic(def.price)}")`);

/** `GET <route>`: one route's reference page (the copy buttons' script once, at the end). */
export const referencePage = (def: AnyRouteDef, deps: SectionDeps): Html =>
  layout(def.title, html`<h1>${def.title}</h1>${routeSections(def, deps)}${copyScript}`);

/** The body of a route's reference page; /spec concatenates these for every route. */
export function routeSections(def: AnyRouteDef, { base, gate }: SectionDeps): Html {
  const path = openApiPath(def.path);
  const example = def.product ? { ...def.examples.response, attribution: attribution(base, def.product) } : def.examples.response;
  const errors = [
    ...(def.price !== null ? [{ status: 402, when: "payment required, invalid, expired or replayed: decode payment-required, sign, retry" }] : []),
    ...def.errors,
  ];
  return html`
<p><span class="tag">${def.method.toUpperCase()}</span> <code>${path}</code> · <span class="price">${priceLabel(def)}</span></p>
<p>${def.summary}</p>
${def.description.split(/\n\n+/).map((p) => html`<p>${p}</p>`)}
<h3>Request</h3>
${def.params ? schemaTable(def.params, "input") : ""}
${def.body ? schemaTable(def.body, "input") : html`<p class="muted">No request body.</p>`}
${def.headers?.length ? html`<div class="scroll" tabindex="0"><table><thead><tr><th>header</th><th>meaning</th></tr></thead><tbody>${def.headers.map((h) => html`<tr><td><code>${h.name}</code></td><td>${h.description}</td></tr>`)}</tbody></table></div>` : ""}
${def.examples.request !== undefined ? html`<p>Example request body:</p>${json(def.examples.request)}` : ""}
<h3>Response 200</h3>
${schemaTable(def.response, "output")}
${folded("Example response", example)}
<h3>Errors</h3>
<p>Every error has the JSON body <code>{"error", "message", "request_id"}</code>${def.price !== null ? html` and, on paid routes, <code>payment_settled</code>` : ""}.</p>
<div class="scroll" tabindex="0"><table><thead><tr><th>status</th><th>when</th></tr></thead><tbody>${errors.map((e) => html`<tr><td>${e.status}</td><td>${e.when}</td></tr>`)}</tbody></table></div>
${def.price !== null ? paymentSection(def as PaidRoute, base, gate) : ""}
<h3>Try it</h3>
${tryIt(def, base)}`;
}

function paymentSection(def: PaidRoute, base: string, gate: PaymentGate | undefined): Html {
  const challenge = gate?.paymentRequired(def);
  const aboveCap = Number(def.price) >= SDK_DEFAULT_SPEND_CAP_USDC;
  return html`
<h3>Payment (x402 v2)</h3>
<p>An unpaid <code>${def.method.toUpperCase()}</code> answers <strong>402</strong> with this challenge as the JSON body, base64-encoded in the
<code>payment-required</code> header, and <code>www-authenticate: x402</code>. Sign it (EIP-3009 USDC transfer) and repeat the request with the
<code>PAYMENT-SIGNATURE</code> header. The payment is settled only when the answer is below 400; the receipt comes back in <code>PAYMENT-RESPONSE</code> (and, for v1 clients, <code>X-PAYMENT-RESPONSE</code>).</p>
${challenge ? challengeShown(challenge) : html`<p class="muted">Challenge example unavailable: no payment gate is configured in this process.</p>`}
${aboveCap ? html`<p><strong>Spend cap:</strong> this call costs ${def.price} USDC. x402 SDK clients cap one payment at $${SDK_DEFAULT_SPEND_CAP_USDC} unless configured otherwise; raise the cap before calling, e.g. <code>new x402Client({ spendControls: { maxAmountPerPayment: "$${def.price}" } })</code> with <code>@x402/fetch</code>.</p>` : ""}
<p class="muted">Reference: ${base}${openApiPath(def.path)}</p>`;
}

/** The challenge without its extensions' bodies: they repeat this page's request schema and example. */
function challengeShown({ extensions, ...rest }: ReturnType<PaymentGate["paymentRequired"]>): Html {
  const names = Object.keys(extensions ?? {});
  return html`${json(rest)}${names.length ? html`<p class="muted">Abridged: the <code>extensions</code> object (${names.map((n, i) => html`${i ? ", " : ""}<code>${n}</code>`)}: discovery metadata repeating this page's request schema and examples, and an optional idempotency key) is left out here; the Try it command below fetches the whole challenge.</p>` : ""}`;
}
