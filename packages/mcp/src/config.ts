import { z } from "zod";
import { checkedBaseUrl } from "@x402-lookout/client";

/** The MCP server's settings, from its environment; a bad value stops it with one line per problem. */
export interface McpConfig {
  baseUrl: string;
  payerKey: `0x${string}` | undefined;
  maxPaymentUsdc: string;
  creditId: string | undefined;
  timeoutMs: number;
}

const envSchema = z.object({
  LOOKOUT_BASE_URL: z
    .string()
    .default("http://localhost:8402")
    .transform((raw, ctx) => {
      try {
        return checkedBaseUrl(raw);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  LOOKOUT_PAYER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
    .transform((k) => k as `0x${string}`)
    .optional(),
  LOOKOUT_MAX_PAYMENT_USDC: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, "must be a USDC amount such as 1 or 0.5")
    .default("1"),
  LOOKOUT_CREDIT_ID: z.uuid("must be a creditId (uuid) from the credits tool").optional(),
  LOOKOUT_TIMEOUT_MS: z.coerce
    .number()
    .int("must be whole milliseconds")
    .min(1_000, "must be at least 1000")
    .max(300_000, "must be at most 300000")
    .default(30_000),
});

export class McpConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "McpConfigError";
  }
}

export function loadMcpConfig(env: Record<string, string | undefined>): McpConfig {
  const clean = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k] === "" ? undefined : env[k]]));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    throw new McpConfigError(parsed.error.issues.map((i) => `lookout-mcp: ${String(i.path[0])} ${i.message}`));
  }
  const e = parsed.data;
  return {
    baseUrl: e.LOOKOUT_BASE_URL,
    payerKey: e.LOOKOUT_PAYER_KEY,
    maxPaymentUsdc: e.LOOKOUT_MAX_PAYMENT_USDC,
    creditId: e.LOOKOUT_CREDIT_ID,
    timeoutMs: e.LOOKOUT_TIMEOUT_MS,
  };
}
