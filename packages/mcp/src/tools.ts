import { z } from "zod";
import { answerSchema, routeContracts, routeNames, type AnyRouteContract, type RouteName } from "@x402-lookout/contracts";

/** One MCP tool per route, described and typed by the route's contract. */
export interface LookoutTool {
  /** The MCP tool name: the route id. */
  name: string;
  /** The typed client's method that calls the route. */
  method: RouteName;
  title: string;
  description: string;
  /** Validates the arguments of each call. */
  inputSchema: z.ZodObject;
  /** Validates each answer. */
  outputSchema: z.ZodObject;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export function lookoutTools(): LookoutTool[] {
  return routeNames.map((method) => {
    const c: AnyRouteContract = routeContracts[method];
    const inputSchema = toolInput(c);
    const outputSchema = answerSchema(c) as z.ZodObject;
    return {
      name: c.id,
      method,
      title: c.title,
      description: `${c.summary}\n\n${priceLine(c)}\n\n${c.description}`,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: c.method === "get", destructiveHint: c.method === "delete", idempotentHint: c.method !== "post", openWorldHint: true },
    };
  });
}

function priceLine(c: AnyRouteContract): string {
  if (c.price === null) return "Free.";
  const credits = c.acceptsCredits ? " (or one call of the configured credit bundle)" : "";
  return `Costs ${c.price} USDC per call${credits}, paid with x402 from the configured wallet; refused unsent when above the spend cap.`;
}

/** The route's body or path parameters, plus `secret` where the route takes one. */
function toolInput(c: AnyRouteContract): z.ZodObject {
  const base = (c.body ?? c.params ?? z.object({})) as z.ZodObject;
  return c.bearerSecret ? base.extend({ secret: z.string().min(1).describe(c.bearerSecret) }) : base;
}
