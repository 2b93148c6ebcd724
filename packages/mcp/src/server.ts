import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LookoutError, type LookoutClient } from "@x402-lookout/client";
import { INSTRUCTIONS } from "./instructions.js";
import { lookoutTools } from "./tools.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

/** An MCP server whose tools are the routes of one x402 Lookout, called through the typed client. */
export function createLookoutMcpServer(client: LookoutClient): McpServer {
  const server = new McpServer({ name: "x402-lookout", version }, { instructions: INSTRUCTIONS });
  for (const tool of lookoutTools()) {
    const call = client[tool.method] as (input: unknown) => Promise<Record<string, unknown>>;
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
