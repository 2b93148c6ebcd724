import { html } from "hono/html";
import { layout, type Html } from "../pages/layout.js";

/** What /prober says of the paid checker: its wallet and limits, never its key (decision 0051). */
export interface CanaryFacts {
  address: string | null;
  budgetUsdcPerDay: string;
  maxPriceUsdc: string;
  intervalHours: number;
  hostChecksPerDay: number;
}

function canarySection(c: CanaryFacts): Html {
  if (!c.address) return html`<h2>The paid checker</h2><p>The paid checker is off here: this deployment pays no endpoint to check what it delivers.</p>`;
  return html`<h2>The paid checker</h2>
    <p>
      Besides the unpaid probes, a paid checker pays a sample of listed endpoints for real, as any agent would (the x402
      client, the listing's declared input), and judges what they deliver: an error, an empty or canned body, a refusal
      after payment, or a body outside the declared output schema is flagged. Each check's 402, request, answer and
      transaction are kept 30 days as a signed document, linked from the endpoint's page.
    </p>
    <table class="facts"><tbody>
      <tr><th scope="row">wallet</th><td><code id="canary-wallet">${c.address}</code> (the payer of every check)</td></tr>
      <tr><th scope="row">budget</th><td>at most ${c.budgetUsdcPerDay} USDC in any 24 hours</td></tr>
      <tr><th scope="row">price ceiling</th><td>no endpoint priced above ${c.maxPriceUsdc} USDC is paid</td></tr>
      <tr><th scope="row">cadence</th><td>each endpoint at most once every ${c.intervalHours} hours, at most ${c.hostChecksPerDay} checks per host a day</td></tr>
    </tbody></table>`;
}

/**
 * Where an endpoint owner learns who probes them: the probes themselves carry an ordinary
 * client's headers (decision 0020), so the contact lives here, not in a User-Agent.
 */
export function proberPage(base: string, contact: string | null, canary: CanaryFacts): Html {
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
      ${canarySection(canary)}
      <h2>Contact</h2>
      <p>${contact ? html`Operator: ${contact}` : html`The operator of <a href="${base}">${base}</a>.`}</p>
      <p>Machine-readable description of the service: <a href="${base}/.well-known/x402">/.well-known/x402</a>.</p>`,
  );
}
