import type { Network } from "@x402/core/types";
import type { ClientEvmSigner } from "@x402/evm";
import { routeContracts, routeNames } from "@x402-lookout/contracts";
import { checkedBaseUrl } from "./base-url.js";
import { callRoute, type CallDeps } from "./call-route.js";
import { CreditBundle, type CreditState } from "./credit-bundle.js";
import { createLookoutKeys, type LookoutKeys } from "./jwks.js";
import { DEFAULT_NETWORKS } from "./paying-fetch.js";
import type { CallInfo, CallOptions, LookoutMethods } from "./types.js";
import { createVerdictVerifier, type VerdictTime } from "./verdicts.js";

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
  /**
   * Verify the signed verdict of every preflight, trial, batch and forensics answer against the
   * service's JWKS (default true); a bad or missing one throws VerdictSignatureError.
   */
  verifyVerdicts?: boolean;
  /**
   * The client's clock, in ms (default Date.now): each verdict's expiry (observed_at + 5 min) is
   * judged at it, with `clockToleranceSeconds` of skew, and the key set's age is counted on it.
   */
  now?: () => number;
  /** How far the agent's clock may run ahead of the service's (default 30 s). */
  clockToleranceSeconds?: number;
  /**
   * "now" (default): a verdict expired at the client's clock throws VerdictExpiredError.
   * "observed_at": judge at the answer's own moment, only to check archived verdicts.
   */
  verdictTime?: VerdictTime;
}

export interface LookoutClient extends LookoutMethods {
  readonly baseUrl: string;
  /** The service's published keys (JWKS), refetched every 5 minutes and on a new key id: the verdict verifier and an offline guard share them. */
  readonly keys: LookoutKeys;
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
  if (options.verdictTime !== undefined && options.verdictTime !== "now" && options.verdictTime !== "observed_at")
    throw new TypeError(`verdictTime must be "now" or "observed_at", got ${String(options.verdictTime)}`);
  const baseUrl = checkedBaseUrl(options.baseUrl);
  const transport = options.fetch ?? globalThis.fetch;
  const keys = createLookoutKeys(baseUrl, transport, { now: options.now });
  const deps: CallDeps = {
    baseUrl,
    fetch: transport,
    signer: options.signer,
    networks: options.networks ?? DEFAULT_NETWORKS,
    maxPaymentUsdc: maxPayment,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    validateResponses: options.validateResponses ?? false,
    credit: options.creditId ? new CreditBundle(options.creditId) : null,
    onCall: options.onCall,
    verifyVerdicts:
      options.verifyVerdicts === false
        ? null
        : createVerdictVerifier(keys, { now: options.now, at: options.verdictTime, toleranceSeconds: options.clockToleranceSeconds }),
  };
  const methods = Object.fromEntries(
    routeNames.map((name) => [
      name,
      (input?: Record<string, unknown>, callOptions?: CallOptions) => callRoute(routeContracts[name], input ?? {}, deps, callOptions),
    ]),
  ) as unknown as LookoutMethods;
  return {
    ...methods,
    baseUrl: deps.baseUrl,
    keys,
    get credit() {
      return deps.credit?.state() ?? null;
    },
    useCredit(creditId) {
      deps.credit = creditId ? new CreditBundle(creditId) : null;
    },
  };
}
