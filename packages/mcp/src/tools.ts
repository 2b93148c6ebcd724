import { z } from "zod";
import { answerSchema, routeContracts, routeNames, type AnyRouteContract, type RouteName } from "@x402-lookout/contracts";
import { ReportOutcomeBody, reportOutcomeContract } from "@x402-lookout/contracts/outcomes/report-outcome";

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

export interface ToolOptions {
  /** The wallet the server signs outcome reports with when the agent sends no signature (LOOKOUT_PAYER_KEY's). */
  reportsSignedBy?: `0x${string}`;
}

export function lookoutTools(opts: ToolOptions = {}): LookoutTool[] {
  return routeNames.map((method) => {
    const c: AnyRouteContract = routeContracts[method];
    const signs = c.id === reportOutcomeContract.id && opts.reportsSignedBy !== undefined;
    const inputSchema = signs ? serverSignedReport : toolInput(c);
    const outputSchema = answerSchema(c) as z.ZodObject;
    return {
      name: c.id,
      method,
      title: c.title,
      description: `${c.summary}\n\n${priceLine(c)}\n\n${c.description}${signs ? `\n\n${serverSigns(opts.reportsSignedBy!)}` : ""}`,
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

/**
 * report-outcome's input when the server holds a wallet: payer, issued_at and signature may be left
 * to it. safeExtend keeps the body's check that exactly one of tx and nonce is given; loosening a
 * field is what its types forbid, hence the plain ZodObject.
 */
const serverSignedReport: z.ZodObject = (ReportOutcomeBody as z.ZodObject).safeExtend({
  payer: ReportOutcomeBody.shape.payer.optional().describe("the wallet that paid and signed; leave out, with signature, to have this server sign"),
  issued_at: ReportOutcomeBody.shape.issued_at.optional().describe("unix seconds when signed; default now when this server signs"),
  signature: ReportOutcomeBody.shape.signature.optional().describe("the payer's EIP-712 signature; leave out to have this server sign with its wallet"),
});

function serverSigns(address: string): string {
  return `Without \`signature\`, this server signs the report with its own wallet (${address}, LOOKOUT_PAYER_KEY) as payer: it counts only for a settlement that wallet paid. A payment from any other wallet needs that wallet's own signature, with payer and issued_at.`;
}
