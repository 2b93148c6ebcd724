import { html } from "hono/html";
import { openApiPath } from "../openapi.js";
import type { AnyRouteDef } from "../registry.js";
import { inlineScript } from "./csp.js";
import type { Html } from "./layout.js";

/** The environment variable the commands read a bearer secret from (never printed on a page). */
export const SECRET_VAR = "LOOKOUT_SECRET";

/** One shell word: single-quoted, a quote inside closed, escaped and reopened. */
export const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

const pathParams = (def: AnyRouteDef) => [...def.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);

/** Path parameters filled from the example answer's field of the same name (id: watchId, creditId). */
function exampleParams(def: AnyRouteDef): Record<string, string> {
  const answer = (def.examples.response ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const name of pathParams(def)) {
    const key = Object.keys(answer).find((k) => typeof answer[k] === "string" && (k === name || k.toLowerCase().endsWith(name.toLowerCase())));
    out[name] = key ? (answer[key] as string) : name;
  }
  return out;
}

const filledPath = (def: AnyRouteDef, params: Record<string, string>) => def.path.replace(/:(\w+)/g, (_, n: string) => encodeURIComponent(params[n] ?? n));

/** A curl command a person pastes as is: the real URL, the example body quoted for the shell. */
export function curlCommand(def: AnyRouteDef, base: string): string {
  const words = ["curl"];
  if (def.method !== "get") words.push("-X", def.method.toUpperCase());
  words.push(shellQuote(`${base}${filledPath(def, exampleParams(def))}`));
  const lines = [words.join(" ")];
  if (def.bearerSecret) lines.push(`-H "authorization: Bearer $${SECRET_VAR}"`);
  if (def.method === "post") lines.push("-H 'content-type: application/json'", `-d ${shellQuote(JSON.stringify(def.examples.request ?? {}))}`);
  return lines.join(" \\\n  ");
}

const camel = (id: string) => id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** The same call through the typed client (@x402-lookout/client), paying with a signer where the route is paid. */
export function clientCall(def: AnyRouteDef, base: string): string {
  const input = JSON.stringify({ ...exampleParams(def), ...(def.examples.request ?? {}) });
  const args = def.bearerSecret ? `${input.slice(0, -1)}${input === "{}" ? "" : ", "}secret: process.env.${SECRET_VAR} }` : input;
  const paid = def.price !== null;
  return [
    `import { createLookoutClient } from "@x402-lookout/client";`,
    ...(paid ? [`import { privateKeyToAccount } from "viem/accounts";`] : []),
    "",
    `const lookout = createLookoutClient({ baseUrl: ${JSON.stringify(base)}${paid ? ", signer: privateKeyToAccount(process.env.PRIVATE_KEY)" : ""} });`,
    `const answer = await lookout.${camel(def.id)}(${args === "{}" ? "" : args});`,
  ].join("\n");
}

/** Not on the npm registry yet: installed from a clone's tarballs, the registry name only as what it will be. */
const CLIENT_INSTALL = html`<code>@x402-lookout/client</code> once published; today <code>npm run pack:packages</code> in a clone of the repository, then <code>npm install</code> its <code>packed/x402-lookout-{contracts,client}-*.tgz</code>`;

/** The "Try it" block: commands in <pre> (escaped by hono/html), with a copy button once JS runs. */
export function tryIt(def: AnyRouteDef, base: string): Html {
  const params = pathParams(def);
  const paid = def.price !== null;
  return html`<div class="try"><button type="button" class="copy" hidden aria-label="Copy the curl command">Copy</button><pre><code class="try-curl" data-route="${def.id}">${curlCommand(def, base)}</code></pre></div>
${params.length ? html`<p class="muted">The example's ${params.map((p) => html`<code>${p}</code>`)} stands in for yours.</p>` : ""}
${def.bearerSecret ? html`<p class="muted">Set <code>${SECRET_VAR}</code> first: ${def.bearerSecret}.</p>` : ""}
${paid ? html`<p>Unpaid, this answers 402 with the payment challenge. An x402 client pays it; with the typed client (${CLIENT_INSTALL}, with <code>@x402/evm viem</code> to pay):</p>` : html`<p>With the typed client (${CLIENT_INSTALL}):</p>`}
<div class="try"><button type="button" class="copy" hidden aria-label="Copy the client code">Copy</button><pre><code class="try-client" data-route="${def.id}">${clientCall(def, base)}</code></pre></div>
${paid && def.method === "post" ? html`<p class="muted">In a clone of the repository, with the devnet's demo key: <code>npm run pay -- ${openApiPath(def.path)} ${shellQuote(JSON.stringify(def.examples.request ?? {}))}</code></p>` : ""}`;
}

/** Shows the copy buttons where the clipboard is available (https or localhost) and copies the block beside. */
export const copyScript = inlineScript(`
if(navigator.clipboard)for(const b of document.querySelectorAll("button.copy")){b.hidden=false;b.onclick=()=>navigator.clipboard.writeText(b.nextElementSibling.textContent).then(()=>{b.textContent="Copied"})}
`);
