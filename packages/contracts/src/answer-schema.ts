import type { z } from "zod";
import { AttributionSchema } from "./attribution.js";
import type { AnyRouteContract } from "./contract.js";

const cache = new WeakMap<object, z.ZodType>();

/** A route's documented 200 answer: its response schema, plus `attribution` on product routes. */
export function answerSchema(contract: AnyRouteContract): z.ZodType {
  if (!contract.product) return contract.response;
  let s = cache.get(contract.response);
  if (!s) {
    s = (contract.response as z.ZodObject).extend({ attribution: AttributionSchema });
    cache.set(contract.response, s);
  }
  return s;
}
