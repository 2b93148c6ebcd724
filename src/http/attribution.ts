import type { Attribution } from "@x402-lookout/contracts/attribution";
import { SERVICE_NAME } from "../lib/attribution.js";

export { SERVICE_NAME };
export { AttributionSchema, type Attribution } from "@x402-lookout/contracts/attribution";

export const specUrl = (base: string) => `${base}/spec`;

/** Passive provenance (/spec#provenance): who produced the signals, never an endorsement. */
export function attribution(base: string, product: string): Attribution {
  return {
    authority: base,
    product: `${product} by ${SERVICE_NAME}`,
    claim: `Provenance only: ${SERVICE_NAME} computed these signals from its own probes. It is not an endorsement of any merchant and not a trust guarantee.`,
    url: base,
    spec: specUrl(base),
  };
}

export function attributionHeaders(base: string, product: string): Record<string, string> {
  return {
    "X-signal-Authority": base,
    "X-signal-Product": `${product} by ${SERVICE_NAME}`,
    Link: `<${specUrl(base)}>; rel="describedby"`,
  };
}
