import { zodToOpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import { SCHEMA_NAMES } from "@x402-lookout/contracts/schema-names";
import type { AppEnv } from "./app-env.js";
import { answerSchema } from "@x402-lookout/contracts/answer-schema";
import type { AnyRouteDef } from "./registry.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { ErrorBodySchema, PaymentRequiredSchema } from "@x402-lookout/contracts/common";
import { SERVICE_NAME } from "./attribution.js";

export const API_VERSION = "1.0.0";

/** Hono's ":id" to OpenAPI's "{id}". */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

// The contracts name their shared schemas apart from zod's global registry; the OpenAPI
// generator reads a component's name from its own registry.
for (const [schema, refId] of SCHEMA_NAMES) zodToOpenAPIRegistry.add(schema, { ...zodToOpenAPIRegistry.get(schema), _internal: { refId } });

/** Registers every route in the app's OpenAPI registry and serves the 3.1.0 document. */
export function registerOpenApi(app: OpenAPIHono<AppEnv>, base: string, routes: readonly AnyRouteDef[]): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "x402", {
    type: "apiKey",
    in: "header",
    name: "PAYMENT-SIGNATURE",
    description: "x402 v2: base64 PaymentPayload signed for the route's 402 challenge",
  });
  for (const def of routes) app.openAPIRegistry.registerPath(describeRoute(def));

  let doc: unknown;
  app.get("/openapi.json", (c) => {
    doc ??= app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: SERVICE_NAME,
        version: API_VERSION,
        description: `Risk signals for x402 payment endpoints, paid per call with x402 v2. Specification: ${base}/spec`,
      },
      servers: [{ url: base }],
    });
    return c.json(doc as object);
  });
}

function describeRoute(def: AnyRouteDef) {
  const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
    200: {
      description: def.summary,
      content: { "application/json": { schema: answerSchema(def) } },
    },
  };
  if (def.price !== null) {
    responses[402] = {
      description: "payment required: decode the payment-required header (same object as this body), sign, retry with PAYMENT-SIGNATURE",
      content: { "application/json": { schema: PaymentRequiredSchema } },
    };
  }
  if (def.price !== null) {
    // Every paid route (docs/payments.md); a route's own 409 below says more.
    responses[202] = {
      description: "settlement_pending: the answer is kept; retry with the same PAYMENT-SIGNATURE and its payment-identifier to collect it",
      content: { "application/json": { schema: ErrorBodySchema } },
    };
    responses[409] = {
      description:
        "payment_already_used, payment_in_progress or payment_identifier_conflict: a reused payment gets no answer without its original payment-identifier",
      content: { "application/json": { schema: ErrorBodySchema } },
    };
  }
  for (const e of def.errors) {
    responses[e.status] = { description: e.when, content: { "application/json": { schema: ErrorBodySchema } } };
  }
  return createRoute({
    method: def.method,
    path: openApiPath(def.path),
    operationId: def.id,
    summary: def.summary,
    description: def.description,
    ...(def.price !== null ? { security: [{ x402: [] }], "x-x402-price-usdc": def.price, "x-x402-amount": usdcToAtomic(def.price) } : {}),
    request: {
      ...(def.params ? { params: def.params as z.ZodObject } : {}),
      ...(def.body ? { body: { required: !def.bodyOptional, content: { "application/json": { schema: def.body } } } } : {}),
    },
    responses,
  });
}
