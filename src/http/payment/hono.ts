import type { Context } from "hono";
import type { AppEnv } from "../app-env.js";
import { ApiError } from "../errors.js";
import type { HandlerContext } from "../registry.js";
import type { Answer, PaidRoute, PaymentGate } from "./types.js";

/**
 * The Hono adapter of the payment core: sends what decide() refused, runs the handler (`next`)
 * only on a credit or a verified and claimed payment, and hands its answer to settle(). It runs
 * inside the route's handler rather than as a `(c, next)` middleware: Hono turns a handler's
 * throw into c.res before a middleware sees it, and a replaced c.res keeps the handler's headers,
 * so the answers would differ from these (decision 0041).
 */
export async function applyPayment(
  c: Context<AppEnv>,
  gate: PaymentGate,
  route: PaidRoute,
  hctx: HandlerContext,
  next: () => Promise<Response>,
): Promise<Response> {
  const decision = await gate.decide(hctx, route);
  if (decision.kind === "refused") return send(c, decision.answer);
  if (decision.kind === "replayed") {
    // The route may answer a replay its own way (credits: the bundle, for its payer only).
    await route.onReplay?.(decision.paymentId, hctx);
    return send(c, decision.answer);
  }
  hctx.payment = decision.payment;
  let response: Response;
  try {
    response = await next();
  } catch (err) {
    await gate.abandon(decision, route, err, hctx);
    throw err;
  }
  const settlement = await gate.settle(decision, route, response, hctx);
  if (settlement.kind === "withheld") return send(c, settlement.answer);
  if (settlement.settled) c.set("settled", true);
  for (const [name, value] of Object.entries(settlement.headers)) response.headers.set(name, value);
  return response;
}

/** An answer as Hono sends it: JSON beside the headers set so far, a stored text as it was, an error to app.onError. */
export function send(c: Context, answer: Answer): Response {
  if (answer instanceof ApiError) throw answer;
  if ("text" in answer) return new Response(answer.text, { status: answer.status, headers: answer.headers });
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  return c.json(answer.json as object, answer.status as 202);
}
