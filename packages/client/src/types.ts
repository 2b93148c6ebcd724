import type { z } from "zod";
import type { Attribution } from "@x402-lookout/contracts/attribution";
import type { RouteContracts, RouteName } from "@x402-lookout/contracts";
import type { RecommendedActionSchema } from "@x402-lookout/contracts/preflight/schemas";
import type { VerdictClaims } from "@x402-lookout/contracts/verdict";

/** A route's input: its body fields, its path parameters, and `secret` where it takes one. */
export type RouteInput<C> = (C extends { body: infer B extends z.ZodType } ? z.input<B> : unknown) &
  (C extends { params: infer P extends z.ZodType } ? z.input<P> : unknown) &
  (C extends { bearerSecret: string } ? { secret: string } : unknown);

/** The claims of a verdict whose signature the client verified (docs/verdicts.md); not serialised. */
export interface Verified {
  readonly verified: VerdictClaims;
}

type WithVerified<T> = T extends { results: Array<infer E> } ? Omit<T, "results"> & { results: Array<E & Verified> } : T & Verified;

/** A route's 200 answer, with `attribution` on product routes and `verified` on each checked verdict. */
export type RouteOutput<C> = (C extends { response: infer R extends z.ZodType }
  ? C extends { signedVerdicts: string }
    ? WithVerified<z.output<R>>
    : z.output<R>
  : never) &
  (C extends { product: string } ? { attribution: Attribution } : unknown);

export interface CallOptions {
  /** Aborts the call; a payment already sent may still settle (see the error's paymentSettled). */
  signal?: AbortSignal;
  /** Overrides the client's time-out for this call. */
  timeoutMs?: number;
}

type Args<C> = C extends { bodyOptional: true } ? [input?: RouteInput<C>, options?: CallOptions] : [input: RouteInput<C>, options?: CallOptions];

/** One method per route, named after its id in camel case (preflight-trial: preflightTrial). */
export type LookoutMethods = { [K in RouteName]: (...args: Args<RouteContracts[K]>) => Promise<RouteOutput<RouteContracts[K]>> };

export type Answer<K extends RouteName> = RouteOutput<RouteContracts[K]>;
export type PreflightReport = Answer<"preflight">;
export type AlternativesAnswer = Answer<"alternatives">;
export type RecommendedAction = z.output<typeof RecommendedActionSchema>;

/** What the client reports after every answer it got (onCall), for logs and accounting. */
export interface CallInfo {
  routeId: string;
  status: number;
  /** Whether a signed payment was sent during the call. */
  paymentSent: boolean;
  /** The settlement transaction of a paid answer (PAYMENT-RESPONSE), when there is one. */
  transaction: string | null;
  /** Calls left on the credit bundle when the bundle paid. */
  creditBalance: number | null;
}
