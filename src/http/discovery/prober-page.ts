import { html } from "hono/html";
import { layout, type Html } from "../pages/layout.js";

/**
 * Where an endpoint owner learns who probes them: the probes themselves carry an ordinary
 * client's headers (decision 0020), so the contact lives here, not in a User-Agent.
 */
export function proberPage(base: string, contact: string | null): Html {
  return layout(
    "The x402 Lookout prober",
    html`<h1>The x402 Lookout prober</h1>
      <p>
        This service probes the endpoints listed in public x402 catalogs: one unpaid request at the listed method (a
        <code>POST</code> sends <code>{}</code>), never a payment, at most a few requests per minute per host, no
        redirects followed. It reads the 402 challenge's terms (price, payee, asset, network) and compares them with the
        catalog listing and with earlier answers.
      </p>
      <p>
        Probes send the headers an ordinary x402 client sends and vary them between requests, so that an endpoint shows
        the prober the quote it shows agents. They do not name this service.
      </p>
      <h2>Contact</h2>
      <p>${contact ? html`Operator: ${contact}` : html`The operator of <a href="${base}">${base}</a>.`}</p>
      <p>Machine-readable description of the service: <a href="${base}/.well-known/x402">/.well-known/x402</a>.</p>`,
  );
}
