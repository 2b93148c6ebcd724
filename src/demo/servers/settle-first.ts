import type { HTTPRequestContext, HTTPResponseInstructions } from "@x402/core/http";
import { FacilitatorResponseError, withPrivateCacheControl, x402HTTPResourceServer, type RoutesConfig, type x402ResourceServer } from "@x402/core/server";
import { HonoAdapter } from "@x402/hono";
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * A payment middleware that settles BEFORE the handler runs, whatever the handler answers then.
 * The SDK's Hono middleware settles only after an answer under 400, so a merchant that takes the
 * money and then fails needs this order. Everything else is the SDK's own core, as @x402/hono
 * uses it: the challenge (402), verification and settlement on the resource server's
 * facilitator, and the PAYMENT-RESPONSE header of the settlement on whatever the handler answered.
 */
export function settleFirst(routes: RoutesConfig, server: x402ResourceServer): MiddlewareHandler {
  const http = new x402HTTPResourceServer(server, routes);
  return async (c, next) => {
    const adapter = new HonoAdapter(c);
    const context: HTTPRequestContext = {
      adapter,
      path: c.req.path,
      method: c.req.method,
      paymentHeader: adapter.getHeader("payment-signature") ?? adapter.getHeader("x-payment"),
    };
    if (!http.requiresPayment(context)) return next();
    let headers: Record<string, string>;
    try {
      const result = await http.processHTTPRequest(context);
      if (result.type === "no-payment-required") return next();
      if (result.type === "payment-error") return instructed(c, result.response);
      const { paymentPayload, paymentRequirements, declaredExtensions, beforeHandlerSettlement } = result;
      const settled = await http.processSettlement(
        paymentPayload,
        paymentRequirements,
        declaredExtensions,
        { request: context },
        undefined,
        beforeHandlerSettlement,
      );
      if (!settled.success) return instructed(c, settled.response);
      headers = settled.headers;
    } catch (err) {
      // As @x402/hono answers a facilitator that failed: 502, naming the error.
      if (err instanceof FacilitatorResponseError) return c.json({ error: err.message }, 502);
      throw err;
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    c.res.headers.set("cache-control", withPrivateCacheControl(c.res.headers.get("cache-control")));
  };
}

function instructed(c: Context, response: HTTPResponseInstructions): Response {
  for (const [name, value] of Object.entries(response.headers)) c.header(name, value);
  const status = response.status as ContentfulStatusCode;
  return response.isHtml ? c.html(String(response.body ?? ""), status) : c.json(response.body ?? {}, status);
}
