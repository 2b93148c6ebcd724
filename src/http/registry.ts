import type { z } from "@hono/zod-openapi";
import type { RouteContract } from "@x402-lookout/contracts/contract";
import type { Logger } from "../lib/log.js";
import type { Services } from "../services/index.js";

/**
 * A route declares everything the platform derives from it: validation, the OpenAPI document,
 * the HTML reference page, attribution, the price the payment gate charges, metrics labels.
 * Its contract (packages/contracts, one file per route) says what it is, examples included; the
 * route adds the handler.
 * Handlers are thin: take validated input, call one service function, return the body.
 */
export interface RouteDef<
  Body extends z.ZodType = z.ZodType,
  Params extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  Prepared = unknown,
> extends RouteContract<Body, Params, Res> {
  /**
   * `prepared`: what `prepare` started for this request, or undefined when it did not start one
   * (the handler then does that work itself).
   */
  handler: (input: HandlerInput<Body, Params>, ctx: HandlerContext, prepared?: Promise<Prepared>) => Promise<z.output<Res>>;
  /**
   * Read-only work the handler needs (a database read; never a probe, a write or anything else
   * with effects), started as soon as the input is valid so that it runs beside the credit spend
   * instead of after it (decision 0011: it pays while probes are being written, when catalog rows
   * miss the row cache). On a paid route it starts only for a request that offers a credit id.
   */
  prepare?: (input: HandlerInput<Body, Params>, services: Services) => Promise<Prepared>;
  /**
   * Validation that needs the services (e.g. their "now", or a read), run before payment is asked
   * for; throws an ApiError or a DomainError. Schema validation covers everything else.
   */
  check?: (input: HandlerInput<Body, Params>, services: Services) => void | Promise<void>;
  /**
   * Called when a request repeats a payment that already paid for an answer: with the payment's
   * id when the request proved it is the original payer's (its payment-identifier), null when it
   * did not. May throw an ApiError (credits answer 409, with the bundle only for the payer);
   * otherwise the gate answers with the stored answer or its own 409.
   */
  onReplay?: (paymentId: string | null, ctx: HandlerContext) => Promise<void>;
}

export interface HandlerInput<Body extends z.ZodType, Params extends z.ZodType> {
  body: z.output<Body>;
  params: z.output<Params>;
}

export interface HandlerContext {
  /** The one service bag: a handler reaches business logic (and the time) only through it. */
  services: Services;
  /** The service's public address, for links in answers. */
  publicBaseUrl: string;
  requestId: string;
  clientIp: string;
  log: Logger;
  /** Request headers, lower-cased names. */
  header(name: string): string | undefined;
  /** Adds a response header to the successful answer. */
  setHeader(name: string, value: string): void;
  /** Set by the payment gate once a payment or credit covers the call. */
  payment?: PaymentInfo;
}

export interface PaymentInfo {
  kind: "x402" | "credit";
  payer: string | null;
  network: string;
  amountAtomic: string;
  /** The ledger row of an x402 payment; services bind what it buys to it. */
  paymentId?: string;
  /** The settlement transaction once known; for x402 it is known only after settlement. */
  transaction?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteDef = RouteDef<any, any, any, any>;

/** Keeps the route's literal id, so the route table (src/http/routes/index.ts) can match it to its contract. */
export function defineRoute<B extends z.ZodType, P extends z.ZodType, R extends z.ZodType, X = unknown, Id extends string = string>(
  def: RouteDef<B, P, R, X> & { id: Id },
): RouteDef<B, P, R, X> & { id: Id } {
  return def;
}

export const isPaid = (r: AnyRouteDef): r is AnyRouteDef & { price: string } => r.price !== null;
