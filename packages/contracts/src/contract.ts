import type { z } from "zod";

/** Every status other than 200 a route may answer (src/http/errors.ts maps failures to them). */
export type ErrorStatus = 400 | 402 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/**
 * What a route is, without what it does: address, price, schemas, examples, documented errors and
 * prose, in one file per route. The server adds a handler (src/http/registry.ts); the typed
 * client, the payment guard and the MCP server are built from the contracts alone, so none of
 * them loads server code and none can drift from the API. Everything here is pure data and zod schemas.
 */
export interface RouteContract<Body extends z.ZodType = z.ZodType, Params extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  /** Stable identifier, e.g. "preflight"; used for operation ids, metrics and MCP tool names. */
  id: string;
  method: "get" | "post" | "delete";
  /** Hono-style path, e.g. "/api/v1/credits/:id". */
  path: string;
  /** Price in USDC as a decimal string ("0.001"), or null for a free route. */
  price: string | null;
  /** Product name for attribution (the /spec page's Provenance section); only the ten product routes set it. */
  product?: string;
  /** Whether a prepaid credit bundle (X-Credit-Id) can pay for this route. */
  acceptsCredits?: boolean;
  title: string;
  summary: string;
  /** Longer prose for the reference page and OpenAPI description (plain text, paragraphs). */
  description: string;
  body?: Body;
  /** Whether the body may be absent (treated as {}). */
  bodyOptional?: boolean;
  params?: Params;
  response: Res;
  /** Every non-200 status this route answers, with when. */
  errors: Array<{ status: ErrorStatus; when: string }>;
  /** A request and its answer, for /spec, the OpenAPI document, /.well-known/x402 and the agent card. */
  examples: { request?: z.input<Body>; response: z.output<Res> };
  /** Extra request headers worth documenting (beyond payment headers). */
  headers?: Array<{ name: string; description: string }>;
  /**
   * Set when the caller must present a secret as `Authorization: Bearer <secret>`; the text says
   * which. Clients take it as a `secret` input next to the route's own fields.
   */
  bearerSecret?: string;
  /**
   * Where the answer carries signed verdicts (docs/verdicts.md): on the answer itself, or on each
   * element of `results`. The typed client verifies them.
   */
  signedVerdicts?: "answer" | "results";
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteContract = RouteContract<any, any, any>;

type ExamplesOf<C extends AnyRouteContract> = {
  request?: C["body"] extends z.ZodType ? z.input<C["body"]> : never;
  response: z.output<C["response"]>;
};

/**
 * Keeps the literal shape of a contract (its id, which optional fields it has), for typed clients
 * and the server's route table, and checks its examples against its schemas.
 */
export function defineContract<C extends AnyRouteContract, Id extends string>(
  contract: C & { id: Id; examples: ExamplesOf<C> },
): Omit<C, "id" | "examples"> & { id: Id; examples: ExamplesOf<C> } {
  return contract;
}
