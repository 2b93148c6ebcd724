import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { productRoutes } from "../../src/http/routes/index.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { SKYCAST, seedSkycastCatalog } from "../helpers/skycast-catalog.js";

const MCP = ["--conditions=@x402-lookout/source", "--import", "tsx", resolve(import.meta.dirname, "../../packages/mcp/src/main.ts")];
const HOOK = "https://93.184.216.34/hooks/lookout";
const PAYER = 7;

let svc: PaidService;
let mcp: Client;
let stderr = "";
// Everything the SDK client (and its ajv) says in this process.
const said: unknown[][] = [];

/** The formats JSON Schema itself defines, which every validator knows (zod writes others, e.g. starts_with, that ajv warns about). */
const STANDARD_FORMATS = new Set(["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid", "regex"]);

/** Every `format` and every key a plain, inline JSON Schema must not carry, with its path. */
function oddities(node: unknown, path = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => oddities(n, `${path}/${i}`));
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([k, v]) => [
    ...(k === "format" && typeof v === "string" && !STANDARD_FORMATS.has(v) ? [`${path}: format ${v}`] : []),
    ...(["$ref", "$defs", "definitions", "$id"].includes(k) ? [`${path}: ${k}`] : []),
    ...(["enum", "const", "default", "examples"].includes(k) ? [] : oddities(v, `${path}/${k}`)),
  ]);
}

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  await seedSkycastCatalog(svc.ctx);
  for (const level of ["warn", "error", "log", "info"] as const) vi.spyOn(console, level).mockImplementation((...args) => void said.push([level, ...args]));
  mcp = new Client({ name: "schema-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: MCP,
    env: { LOOKOUT_BASE_URL: svc.url, LOOKOUT_PAYER_KEY: svc.devnet.demoAccounts[PAYER]!.privateKey },
    stderr: "pipe",
  });
  transport.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  await mcp.connect(transport);
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await mcp?.close();
  await svc?.close();
});

describe("lookout-mcp's tool schemas, as the MCP SDK client sees them", () => {
  it("are plain inline JSON Schema objects the SDK client lists and calls without a warning", async () => {
    const { tools } = await mcp.listTools();
    expect(tools).toHaveLength(productRoutes.length);
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      for (const [side, schema] of [
        ["input", tool.inputSchema],
        ["output", tool.outputSchema],
      ] as const) {
        expect(schema, `${tool.name} ${side}`).toMatchObject({ type: "object" });
        expect(oddities(schema), `${tool.name} ${side}`).toEqual([]);
        // The client compiles output schemas itself; inputs are compiled here the same way.
        expect(typeof validator.getValidator(schema as never)).toBe("function");
      }
    }
    // The fields zod writes formats for: date-time (since), uuid (ids) and startsWith (signingSecret).
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("whats-new")!.inputSchema.properties!.since).toMatchObject({ type: "string", format: "date-time" });
    expect(byName.get("watch")!.outputSchema!.properties!.watchId).toMatchObject({ format: "uuid" });
    expect(byName.get("watch")!.outputSchema!.properties!.signingSecret).toEqual(expect.not.objectContaining({ format: expect.anything() }));

    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      return result.structuredContent as any;
    };
    expect(await call("preflight-trial", { url: SKYCAST.forecast })).toMatchObject({ recommended_action: "pay" });
    expect(await call("preflight", { url: SKYCAST.broken })).toMatchObject({ ok: false });
    expect((await call("watch", { url: SKYCAST.forecast, webhookUrl: HOOK })).signingSecret).toMatch(/^whsec_/);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect(await call("whats-new", { since })).toMatchObject({ since, window_hours: 1 });

    expect(said).toEqual([]);
    expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(/^lookout-mcp: serving .* paying from 0x/)]);
  });

  it("come with instructions that name the preflight tools, the spend cap and credit bundles", () => {
    const text = mcp.getInstructions()!;
    for (const word of ["preflight-trial", "preflight", "recommended_action", "LOOKOUT_MAX_PAYMENT_USDC", "credits", "LOOKOUT_CREDIT_ID", "report-outcome"])
      expect(text).toContain(word);
    // Every tool it names exists.
    for (const name of text.match(/\b(?:preflight-trial|preflight-batch|forensics|alternatives|credits|report-outcome)\b/g)!) {
      expect(productRoutes.map((r) => r.id)).toContain(name);
    }
  });
});
