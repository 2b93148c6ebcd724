import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LookoutError, signOutcomeReport, type LookoutClient, type OutcomeFields, type OutcomeSigner } from "@x402-lookout/client";
import { INSTRUCTIONS } from "./instructions.js";
import { lookoutTools } from "./tools.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

export interface McpServerOptions {
  /**
   * The server's wallet (LOOKOUT_PAYER_KEY's account): report-outcome signs with it the reports
   * the agent sends without a signature, which count only for settlements this wallet paid.
   */
  outcomeSigner?: OutcomeSigner;
}

/** An MCP server whose tools are the routes of one x402 Lookout, called through the typed client. */
export function createLookoutMcpServer(client: LookoutClient, opts: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: "x402-lookout", version }, { instructions: INSTRUCTIONS });
  const signer = opts.outcomeSigner;
  for (const tool of lookoutTools({ reportsSignedBy: signer?.address })) {
    const route = client[tool.method] as (input: unknown) => Promise<Record<string, unknown>>;
    const call = tool.method === "reportOutcome" && signer ? async (args: unknown) => route(await signedReport(signer, args as UnsignedReport)) : route;
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const answer = await call(args);
          return { content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer };
        } catch (err) {
          return toolError(err);
        }
      },
    );
  }
  return server;
}

type UnsignedReport = OutcomeFields & { payer?: string; issued_at?: number; signature?: string };

/** A report as the agent sent it when it carries a signature, else signed by the server's wallet. */
async function signedReport(signer: OutcomeSigner, args: UnsignedReport): Promise<unknown> {
  if (args.signature !== undefined) return args;
  if (args.payer !== undefined && args.payer.toLowerCase() !== signer.address.toLowerCase())
    throw new Error(`payer ${args.payer} is not this server's wallet (${signer.address}): send that wallet's own signature, or leave payer out`);
  const { url, tx, nonce, outcome, detail, issued_at } = args;
  return signOutcomeReport(signer, { url, tx, nonce, outcome, detail, issuedAt: issued_at });
}

/** A failed call as a tool error: the HTTP status, the service's body, and what happened to the payment. */
function toolError(err: unknown): CallToolResult {
  const failure =
    err instanceof LookoutError
      ? {
          status: err.status,
          error: err.code,
          message: err.message,
          body: err.body ?? null,
          payment_sent: err.paymentSent,
          payment_settled: err.paymentSettled,
          retryable: err.retryable,
        }
      : {
          status: null,
          error: "client_error",
          message: err instanceof Error ? err.message : String(err),
          body: null,
          payment_sent: false,
          payment_settled: false,
          retryable: false,
        };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(failure) }] };
}
