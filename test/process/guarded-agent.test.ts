import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createPublicClient, http, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeContracts } from "@x402-lookout/contracts";
import { anvilAccount } from "../../src/chain/devnet-accounts.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { spawnService, type SpawnedService } from "../helpers/spawn-service.js";

const run = promisify(execFile);

let svc: SpawnedService;
let url: string;
let balanceOf: (address: Address) => Promise<bigint>;
let decoy: string;
let healthy: { resource: string; accepts: Array<{ amount: string }> };

beforeAll(async () => {
  svc = spawnService();
  url = String((await svc.waitForLine((l) => l.msg === "x402 Lookout listening", 20_000)).url);
  const { catalog } = await svc.waitForLine((l) => l.msg === "demo fleet up", 1_000);
  const devnet = await svc.waitForLine((l) => typeof l.rpc === "string" && typeof l.usdc === "string", 1_000);
  await svc.waitForLine((l) => l.msg === "ingest cycle", 20_000);
  const chain = createPublicClient({ transport: http(String(devnet.rpc)) });
  balanceOf = (address) => chain.readContract({ address: devnet.usdc as Address, abi: testUsdcAbi, functionName: "balanceOf", args: [address] });
  // Read the demo catalog like any Bazaar client: the 2500 USDC decoy and a healthy weather endpoint.
  const { items } = (await (await fetch(String(catalog))).json()) as { items: Array<typeof healthy> };
  decoy = items.find((i) => BigInt(i.accepts[0]!.amount) >= 1_000_000_000n)!.resource;
  healthy = items.find((i) => new URL(i.resource).pathname === "/weather/current")!;
}, 60_000);
afterAll(() => svc?.cleanup());

describe("with npm start running", () => {
  it("the ten-line guarded agent of examples/ refuses the demo decoy and pays a healthy demo endpoint", async () => {
    const agent = anvilAccount(2);
    const before = await balanceOf(agent.address);
    const { stdout } = await run(
      process.execPath,
      ["--conditions=@x402-lookout/source", "--import", "tsx", "examples/guarded-agent.ts", decoy, `${healthy.resource}?city=Lisbon`],
      {
        env: { ...process.env, LOOKOUT_BASE_URL: url, PAYER_KEY: agent.privateKey },
        timeout: 60_000,
      },
    );
    const [refused, paid] = stdout.trim().split("\n");
    expect(refused).toMatch(new RegExp(`^refused ${decoy}: .*decoy_price_extreme`));
    expect(paid).toMatch(new RegExp(`^paid ${healthy.resource}\\?city=Lisbon: HTTP 200 .*Lisbon`));
    // The merchant's price once, and three preflight checks of 0.001 USDC (each endpoint's, and the
    // healthy one's payment as it was about to be signed): nothing went to the decoy.
    expect(before - (await balanceOf(agent.address))).toBe(BigInt(healthy.accepts[0]!.amount) + 3_000n);
  }, 90_000);

  it("an MCP client lists every tool of lookout-mcp and calls each against the service", async () => {
    const mcp = new Client({ name: "acceptance", version: "1.0.0" });
    const env = { LOOKOUT_BASE_URL: url, LOOKOUT_PAYER_KEY: anvilAccount(3).privateKey, LOOKOUT_MAX_PAYMENT_USDC: "5" };
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--conditions=@x402-lookout/source", "--import", "tsx", resolve(import.meta.dirname, "../../packages/mcp/src/main.ts")],
        env,
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        Object.values(routeContracts)
          .map((c) => c.id)
          .sort(),
      );
      const call = async (name: string, args: Record<string, unknown> = {}) => (await mcp.callTool({ name, arguments: args })) as CallToolResult;
      const credit = await call("credits");
      // A fresh install has little history: some routes refuse (a 422, a 404), and the refusal comes back with its status.
      const args: Record<string, Record<string, unknown>> = {
        "preflight-trial": { url: healthy.resource },
        preflight: { url: decoy },
        "preflight-batch": { urls: [healthy.resource, decoy] },
        forensics: { url: healthy.resource },
        alternatives: { url: decoy },
        "whats-new": {},
        // A private-range webhook is refused (400) before payment, even in demo mode (loopback allowed).
        watch: { url: healthy.resource, webhookUrl: "http://10.0.0.9/hook" },
        "watch-status": { id: randomUUID(), secret: "0".repeat(64) },
        "watch-unsubscribe": { id: randomUUID(), secret: "0".repeat(64) },
        verified: { url: healthy.resource, name: "Skycast" },
        "verified-status": { certId: randomUUID() },
        "delivery-check": { id: `dc_${"a".repeat(26)}` },
        // A report whose signature is not its payer's: refused (422) before anything is written.
        "report-outcome": {
          url: healthy.resource,
          tx: "0x" + "ab".repeat(32),
          outcome: "undelivered",
          payer: "0x" + "11".repeat(20),
          issued_at: Math.floor(Date.now() / 1000),
          signature: "0x" + "cd".repeat(65),
        },
        "credits-status": { id: (credit.structuredContent as { creditId: string }).creditId },
        "verdict-deltas": { since: 0 },
      };
      const outcomes: Record<string, unknown> = { credits: 200 };
      for (const tool of tools.filter((t) => t.name !== "credits")) {
        const result = await call(tool.name, args[tool.name] ?? {});
        outcomes[tool.name] = result.isError ? JSON.parse((result.content as Array<{ text: string }>)[0]!.text).status : 200;
      }
      expect(outcomes).toMatchObject({
        preflight: 200,
        "preflight-trial": 200,
        "catalog-decoys": 200,
        "delist-feed": 200,
        "credits-status": 200,
        "verdict-snapshot": 200,
        "verdict-deltas": 200,
        watch: 400,
        "watch-status": 404,
        "verified-status": 404,
        "delivery-check": 404,
        "report-outcome": 422,
      });
      expect(Object.keys(outcomes).sort()).toEqual(tools.map((t) => t.name).sort());
      for (const [name, status] of Object.entries(outcomes)) expect([200, 400, 404, 422], name).toContain(status);
    } finally {
      await mcp.close();
    }
  }, 90_000);
});
