import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type CallToolResult, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { LookoutError, type LookoutClient } from "@x402-lookout/client";
import { INSTRUCTIONS } from "./instructions.js";
import { lookoutTools } from "./tools.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

/** An MCP server whose tools are the routes of one x402 Lookout, called through the typed client. */
export function createLookoutMcpServer(client: LookoutClient): McpServer {
  const server = new McpServer({ name: "x402-lookout", version }, { instructions: INSTRUCTIONS });
  const tools = lookoutTools();
  for (const tool of tools) {
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
  // The SDK lists zod's JSON Schema as is; the list shows the cleaned, inline schemas instead
  // (./json-schema.ts), while calls are still checked by the SDK against the zod schemas above.
  const listed: ListToolsResult = {
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.json.input,
      outputSchema: t.json.output,
      annotations: t.annotations,
      execution: { taskSupport: "forbidden" },
    })),
  };
  server.server.removeRequestHandler(ListToolsRequestSchema.shape.method.value);
  server.server.setRequestHandler(ListToolsRequestSchema, () => listed);
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
