import { z } from "@hono/zod-openapi";
import { answerSchema } from "@x402-lookout/contracts/answer-schema";
import type { AnyRouteDef } from "../registry.js";

export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<AnyRouteDef, { input: JsonSchema; output: JsonSchema }>();

/**
 * A route's request body and 200 answer as JSON Schema (draft 2020-12), from the same zod
 * schemas that validate them, so the manifests never drift from the API.
 */
export function routeJsonSchemas(def: AnyRouteDef): { input: JsonSchema; output: JsonSchema } {
  let s = cache.get(def);
  if (!s) {
    const body = def.body ?? z.object({});
    const output = answerSchema(def);
    s = {
      input: {
        ...(z.toJSONSchema(body, { io: "input", unrepresentable: "any" }) as JsonSchema),
        ...(def.bodyOptional ? { description: "optional: an absent body is treated as {}" } : {}),
      },
      output: z.toJSONSchema(output, { io: "output", unrepresentable: "any" }) as JsonSchema,
    };
    cache.set(def, s);
  }
  return s;
}
