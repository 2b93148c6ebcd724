import type { Context, Hono } from "hono";
import { attribution, attributionHeaders } from "./attribution.js";
import { answerSchema } from "@x402-lookout/contracts/answer-schema";
import { DomainError } from "../services/errors.js";
import { ApiError, toApiError } from "./errors.js";
import { readInput } from "./input.js";
import { challengeAnswer } from "./payment/challenge.js";
import { applyPayment, send } from "./payment/hono.js";
import type { PaymentGate, PaidRoute } from "./payment/types.js";
import type { AnyRouteDef, HandlerContext } from "./registry.js";
import type { AppContext } from "../context.js";
import type { AppEnv } from "./app-env.js";
import { handled } from "../lib/handled.js";

export interface MountDeps {
  ctx: AppContext;
  gate: PaymentGate | undefined;
  /** Check every answer against the route's response schema (tests turn this on). */
  validateResponses: boolean;
}

/** Registers one route: input validation, attribution, payment, handler, response. */
export function mountRoute(app: Hono<AppEnv>, def: AnyRouteDef, deps: MountDeps): void {
  const base = deps.ctx.config.publicBaseUrl;
  const provenanceHeaders = def.product ? attributionHeaders(base, def.product) : undefined;

  app.on(def.method.toUpperCase(), def.path, async (c) => {
    c.set("routeId", def.id);
    c.set("paid", def.price !== null);
    if (provenanceHeaders) for (const [k, v] of Object.entries(provenanceHeaders)) c.header(k, v);

    const input = await readValidInput(c, def, deps);
    if (input instanceof Response) return input;
    const extraHeaders: Record<string, string> = {};
    const hctx: HandlerContext = {
      services: deps.ctx.services,
      publicBaseUrl: base,
      requestId: c.get("requestId"),
      clientIp: c.get("clientIp"),
      log: c.get("log"),
      header: (name) => c.req.header(name),
      setHeader: (name, value) => {
        extraHeaders[name] = value;
      },
    };

    const route = def as PaidRoute;
    const prepared =
      def.prepare && (def.price === null || deps.gate?.offersCredit(hctx, route)) ? handled(def.prepare(input as never, deps.ctx.services)) : undefined;
    const produce = async (): Promise<Response> => {
      const out = await def.handler(input as never, hctx, prepared);
      const body = def.product ? { ...(out as object), attribution: attribution(base, def.product) } : out;
      if (deps.validateResponses) assertResponse(def, body);
      return c.json(body as object, 200, extraHeaders);
    };

    if (def.price === null) return produce();
    if (!deps.gate) throw new Error(`route ${def.id} has a price but no payment gate is configured`);
    return applyPayment(c, deps.gate, route, hctx, produce);
  });
}

/**
 * The route's validated input; for an unpaid request to a paid route whose input would be
 * refused, the 402 challenge with the problem in its `error` (docs/payments.md "Unpaid requests": paid routes answer an
 * unpaid request with 402), so catalog indexers that probe with any body see the price.
 */
async function readValidInput(c: Context, def: AnyRouteDef, deps: MountDeps): Promise<{ body: unknown; params: unknown } | Response> {
  try {
    const input = await readInput(c, def);
    await def.check?.(input as never, deps.ctx.services);
    return input;
  } catch (err) {
    const route = def as PaidRoute;
    const refusal = err instanceof DomainError ? toApiError(err) : err;
    if (!(refusal instanceof ApiError) || def.price === null || !deps.gate || deps.gate.carriesPayment(c.req, route)) throw err;
    return send(
      c,
      challengeAnswer(
        deps.gate.paymentRequired(
          route,
          `${refusal.code}: ${refusal.message} (a paid request with this input is answered ${refusal.status} and charged nothing)`,
        ),
      ),
    );
  }
}

function assertResponse(def: AnyRouteDef, body: unknown): void {
  const result = answerSchema(def).safeParse(body);
  if (!result.success) {
    throw new Error(`response of ${def.id} does not match its schema: ${result.error.message}`);
  }
}
