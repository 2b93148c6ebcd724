import { privateKeyToAccount } from "viem/accounts";
import type { Services } from "../services/index.js";
import { ownLookout } from "./own-lookout.js";
import { createCheckPayer } from "./payer.js";
import { guardedTransport } from "./transport.js";

export interface CanaryAgentOptions {
  privateKey: `0x${string}`;
  network: string;
  publicBaseUrl: string;
  /** Private and loopback addresses (ALLOW_PRIVATE_TARGETS: demo mode and tests only). */
  allowPrivate: boolean;
}

/**
 * The paid checker's agent side (decision 0051), an adapter beside src/chain: the x402 client with
 * the checker's key and the project's payment policy, asking this process's own signed preflight,
 * over an SSRF-guarded transport. The delivery service pays through its `payer`.
 */
export function createCanaryAgent(services: Pick<Services, "reports" | "certificates">, opts: CanaryAgentOptions) {
  const transport = guardedTransport(opts.allowPrivate);
  const lookout = ownLookout({ baseUrl: opts.publicBaseUrl, preflight: (t) => services.reports.preflight(t), jwks: () => services.certificates.jwks() });
  return {
    address: privateKeyToAccount(opts.privateKey).address,
    payer: createCheckPayer({ privateKey: opts.privateKey, network: opts.network, lookout, fetch: transport.fetch }),
    close: () => transport.close(),
  };
}
