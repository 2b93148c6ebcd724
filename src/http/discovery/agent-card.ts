import { SERVICE_NAME } from "../attribution.js";
import { API_VERSION, openApiPath } from "../openapi.js";
import type { AnyRouteDef } from "../registry.js";

const tagsOf = (def: AnyRouteDef) => [def.price === null ? "free" : "x402", def.method.toUpperCase(), ...def.id.split("-")];

/**
 * /.well-known/agent-card.json: an A2A-style agent card, one skill per route, so agent
 * directories list what the service does. Skills are plain HTTP+JSON calls paid with x402.
 */
export function agentCard(base: string, routes: readonly AnyRouteDef[]) {
  return {
    protocolVersion: "0.3.0",
    name: SERVICE_NAME,
    description:
      "Risk signals for x402 payment endpoints before an agent pays them: decoys, zombies, price traps, wildcard-402 hosts, never-paid listings. Paid per call with x402 v2; no keys, no signup.",
    url: base,
    preferredTransport: "HTTP+JSON",
    version: API_VERSION,
    provider: { organization: SERVICE_NAME, url: base },
    documentationUrl: `${base}/spec`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: { x402: { type: "apiKey", in: "header", name: "PAYMENT-SIGNATURE", description: "x402 v2 payment for the route's 402 challenge" } },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: routes.map((def) => ({
      id: def.id,
      name: def.title,
      description: `${def.summary} ${def.method.toUpperCase()} ${base}${openApiPath(def.path)}; ${def.price === null ? "free" : `${def.price} USDC via x402`}.`,
      tags: tagsOf(def),
      examples: def.examples.request !== undefined ? [JSON.stringify(def.examples.request)] : [],
      inputModes: ["application/json"],
      outputModes: ["application/json"],
    })),
  };
}
