import type { Network } from "@x402/core/types";
import type { ClientEvmSigner } from "@x402/evm";
import { routeContracts, type RouteName } from "../contracts/index.js";
import { checkedBaseUrl } from "./base-url.js";
import { callRoute, type CallDeps } from "./call-route.js";
import { CreditBundle, type CreditState } from "./credit-bundle.js";
import { DEFAULT_NETWORKS } from "./paying-fetch.js";
import type { CallInfo, CallOptions, LookoutMethods } from "./types.js";

export interface LookoutClientOptions {
  /** The service: https, or http on loopback (e.g. http://localhost:8402 for `npm start`). */
  baseUrl: string;
  /** Pays paid routes through @x402/fetch: a viem account (privateKeyToAccount) or any ClientEvmSigner. */
  signer?: ClientEvmSigner;
  /** Networks the signer pays on; default Base and Base Sepolia. */
  networks?: readonly Network[];
  /** The most one call may pay, in USDC. Each call also never pays more than its route's price. */
  maxPaymentUsdc?: string | number;
  /** A prepaid bundle from `credits()`: preflight is paid from it while it lasts. */
  creditId?: string;
  /** Per-call time-out in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Check every answer against the route's response schema (default false). */
  validateResponses?: boolean;
  /** The transport under the payment layer (default the global fetch). */
  fetch?: typeof fetch;
  /** Called after every answered call. */
  onCall?: (info: CallInfo) => void;
}

export interface LookoutClient extends LookoutMethods {
  readonly baseUrl: string;
  /** The credit bundle in use and what the answers said about it, or null. */
  readonly credit: CreditState | null;
  /** Pays preflight from this bundle from now on (null: pay per call). */
  useCredit(creditId: string | null): void;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** A typed client of x402 Lookout: one method per route, built from the route contracts. */
export function createLookoutClient(options: LookoutClientOptions): LookoutClient {
  const maxPayment = options.maxPaymentUsdc === undefined ? undefined : String(options.maxPaymentUsdc);
  if (maxPayment !== undefined && !/^\d+(\.\d{1,6})?$/.test(maxPayment))
    throw new TypeError(`maxPaymentUsdc must be a USDC amount with at most 6 decimals, got ${maxPayment}`);
  const deps: CallDeps = {
    baseUrl: checkedBaseUrl(options.baseUrl),
    fetch: options.fetch ?? globalThis.fetch,
    signer: options.signer,
    networks: options.networks ?? DEFAULT_NETWORKS,
    maxPaymentUsdc: maxPayment,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    validateResponses: options.validateResponses ?? false,
    credit: options.creditId ? new CreditBundle(options.creditId) : null,
    onCall: options.onCall,
  };
  const methods = Object.fromEntries(
    (Object.keys(routeContracts) as RouteName[]).map((name) => [
      name,
      (input?: Record<string, unknown>, callOptions?: CallOptions) => callRoute(routeContracts[name], input ?? {}, deps, callOptions),
    ]),
  ) as unknown as LookoutMethods;
  return {
    ...methods,
    baseUrl: deps.baseUrl,
    get credit() {
      return deps.credit?.state() ?? null;
    },
    useCredit(creditId) {
      deps.credit = creditId ? new CreditBundle(creditId) : null;
    },
  };
}
