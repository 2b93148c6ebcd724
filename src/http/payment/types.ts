import type { PaymentClaim } from "../../services/index.js";
import type { Logger } from "../../lib/log.js";
import type { ApiError } from "../errors.js";
import type { AnyRouteDef, PaymentInfo } from "../registry.js";
import type { CheckedPayment } from "./read-payment.js";

export type PaidRoute = AnyRouteDef & { price: string };

/** The x402 v2 PaymentRequired object (the PaymentRequired schema of /openapi.json). */
export interface PaymentRequired {
  x402Version: 2;
  error?: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: Array<{
    scheme: "exact";
    network: string;
    asset: string;
    amount: string;
    payTo: string;
    maxTimeoutSeconds: number;
    extra?: Record<string, unknown>;
  }>;
  extensions?: Record<string, unknown>;
}

/** What the payment core reads of a request: its headers (lower-cased names), its id and log. */
export interface PaymentRequest {
  header(name: string): string | undefined;
  requestId: string;
  log: Logger;
}

/**
 * An answer the core decided, for an adapter to send as it is: JSON (a challenge, a pending
 * settlement), a stored answer's text, or an ApiError for the app's error answer (which names the
 * request and what was settled).
 */
export type Answer =
  { status: number; headers: Record<string, string>; json: unknown } | { status: number; headers: Record<string, string>; text: string } | ApiError;

/**
 * What a request to a paid route may do. `refused`: send the answer, run nothing. `replayed`: a
 * payment that already paid; the route's onReplay hears of it (its payment id when the payer
 * proved it is theirs, else null), then the answer goes out. `credit` and `x402`: the handler
 * runs, and settle() decides what its answer costs.
 */
export type Decision = { kind: "refused"; answer: Answer } | { kind: "replayed"; paymentId: string | null; answer: Answer } | Covered;

export type Covered =
  | { kind: "credit"; payment: PaymentInfo; creditId: string; balance: number; expiresAt: Date }
  | { kind: "x402"; payment: PaymentInfo; checked: CheckedPayment; claim: PaymentClaim };

/**
 * After the handler: `settled` says whether a payment reached the chain, with the headers the
 * answer gains (the receipt, the bundle's balance); `withheld` replaces the answer.
 */
export type Settlement = { kind: "kept"; settled: boolean; headers: Record<string, string> } | { kind: "withheld"; answer: Answer };

/**
 * Payment lives at the edge, in one module, and returns values: decide() before the handler,
 * settle() after its answer (or abandon() when it threw). An adapter applies them (./hono.ts).
 */
export interface PaymentGate {
  /** Credit, then x402: whether the handler may run, and on what. */
  decide(req: PaymentRequest, route: PaidRoute): Promise<Decision>;
  /** Settles an answer below 400; gives back the credit or releases the claim of any other. */
  settle(covered: Covered, route: PaidRoute, answer: Response, req: PaymentRequest): Promise<Settlement>;
  /** The handler threw: the credit is given back, the claim released. */
  abandon(covered: Covered, route: PaidRoute, err: unknown, req: PaymentRequest): Promise<void>;
  /** Whether the request carries a payment header or a credit id this route would take. */
  carriesPayment(req: Pick<PaymentRequest, "header">, route: PaidRoute): boolean;
  /** Whether the request offers a credit id this route would take (not whether the bundle is good). */
  offersCredit(req: Pick<PaymentRequest, "header">, route: PaidRoute): boolean;
  /** The challenge for a route, as sent in 402 answers and shown on reference pages. */
  paymentRequired(route: PaidRoute, error?: string): PaymentRequired;
}
