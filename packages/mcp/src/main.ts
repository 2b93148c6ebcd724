#!/usr/bin/env node
/**
 * lookout-mcp: x402 Lookout's routes as MCP tools over stdio (`npm run mcp` in the repository, or `npx lookout-mcp` where the packed tarballs are installed).
 *   LOOKOUT_BASE_URL          the service: https, or http on loopback (default http://localhost:8402)
 *   LOOKOUT_PAYER_KEY         0x-prefixed private key that pays paid tools (unset: free tools only)
 *   LOOKOUT_MAX_PAYMENT_USDC  the most one tool call may pay (default 1)
 *   LOOKOUT_CREDIT_ID         optional prepaid bundle for preflight
 *   LOOKOUT_TIMEOUT_MS        per-call time-out (default 30000)
 * stdout carries the protocol; diagnostics go to stderr.
 */
import { loadMcpConfig, McpConfigError, type McpConfig } from "./config.js";

let config: McpConfig;
try {
  config = loadMcpConfig(process.env);
} catch (err) {
  console.error(err instanceof McpConfigError ? err.message : String(err));
  process.exit(2);
}

// Loaded once the configuration holds, so a bad one is refused at once.
const [{ StdioServerTransport }, { privateKeyToAccount }, { createLookoutClient }, { createLookoutMcpServer }] = await Promise.all([
  import("@modelcontextprotocol/sdk/server/stdio.js"),
  import("viem/accounts"),
  import("@x402-lookout/client"),
  import("./server.js"),
]);
const signer = config.payerKey ? privateKeyToAccount(config.payerKey) : undefined;
const client = createLookoutClient({
  baseUrl: config.baseUrl,
  signer,
  maxPaymentUsdc: config.maxPaymentUsdc,
  creditId: config.creditId,
  timeoutMs: config.timeoutMs,
});
// The paying wallet also signs the outcome reports the agent sends unsigned (report-outcome).
await createLookoutMcpServer(client, { outcomeSigner: signer }).connect(new StdioServerTransport());
console.error(
  `lookout-mcp: serving ${config.baseUrl} over stdio; ${signer ? `paying from ${signer.address}, at most ${config.maxPaymentUsdc} USDC per call` : "no LOOKOUT_PAYER_KEY: free tools only"}`,
);
