/**
 * @x402-lookout/mcp: x402 Lookout's routes as MCP tools. The bin `lookout-mcp` serves them over
 * stdio; these exports let a host embed the same server on a transport of its own.
 */
export { createLookoutMcpServer, type McpServerOptions } from "./server.js";
export { lookoutTools, type LookoutTool, type ToolOptions } from "./tools.js";
export { INSTRUCTIONS } from "./instructions.js";
export { loadMcpConfig, McpConfigError, type McpConfig } from "./config.js";
