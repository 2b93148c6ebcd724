import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerSchema, routeContracts } from "@x402-lookout/contracts";
import { productRoutes } from "../../src/http/routes/index.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import { insertDeliveryCheck } from "../helpers/delivery-check-row.js";
import { SKYCAST, seedSkycastCatalog } from "../helpers/skycast-catalog.js";
import { signedReport } from "../helpers/outcome-report.js";
import { settleOnChain } from "../helpers/settle-on-chain.js";
import { catchUp, devnetIndexer } from "../chain-index/setup.js";

/** The package bin from its source (test/packages/install.test.ts runs the packed one). */
const MCP = ["--conditions=@x402-lookout/source", "--import", "tsx", resolve(import.meta.dirname, "../../packages/mcp/src/main.ts")];
const HOOK = "https://93.184.216.34/hooks/lookout";
const PAYER = 5;

let svc: PaidService;
let mcp: Client;
const open: Client[] = [];

/** The MCP server, driven over stdio by the SDK's own MCP client. */
async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "lookout-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: MCP, env: { LOOKOUT_BASE_URL: svc.url, ...env }, stderr: "pipe" }));
  open.push(client);
  return client;
}

const call = async (name: string, args: Record<string, unknown> = {}, client = mcp) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const answer = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await call(name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const contract = Object.values(routeContracts).find((c) => c.id === name)!;
  // The route's own documented answer, and the same JSON as text for clients without structured content.
  expect(answerSchema(contract).safeParse(result.structuredContent).success, name).toBe(true);
  expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent as any;
};
const toolError = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
};

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
  // Paid to the MCP payer's wallet, so its certificate request proves control by paying.
  await seedSkycastCatalog(svc.ctx, svc.payer(PAYER));
  mcp = await connect({ LOOKOUT_PAYER_KEY: svc.devnet.demoAccounts[PAYER]!.privateKey, LOOKOUT_MAX_PAYMENT_USDC: "5" });
}, 120_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await svc?.close();
});

describe("lookout-mcp over stdio", () => {
  it("lists one tool per route, with the route's input schema", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(productRoutes.map((r) => r.id));
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("preflight")!.inputSchema).toMatchObject({ type: "object", properties: { url: { type: "string" } }, required: ["url"] });
    expect(byName.get("watch-status")!.inputSchema).toMatchObject({
      properties: { id: { type: "string" }, secret: { type: "string" } },
      required: ["id", "secret"],
    });
    expect(byName.get("alternatives")!.inputSchema.properties).toHaveProperty("taskClass");
    expect(byName.get("delist-feed")!.description).toContain("Costs 5 USDC per call");
    expect(byName.get("credits-status")!.description).toContain("Free.");
    expect(byName.get("preflight")!.outputSchema).toMatchObject({ type: "object" });
    expect(byName.get("watch-unsubscribe")!.annotations).toMatchObject({ destructiveHint: true });
  });

  it("calls every tool, and each returns its route's answer", async () => {
    const called: string[] = [];
    const run = async (name: string, args: Record<string, unknown> = {}) => (called.push(name), answer(name, args));
    // URLs as a model passes the one it will pay: with a query, with a trailing slash (docs/signals.md "How a URL is matched").
    expect(await run("preflight-trial", { url: `${SKYCAST.forecast}?city=Lisbon` })).toMatchObject({
      ok: true,
      recommended_action: "pay",
      metadata: { matched: { url: SKYCAST.forecast, by: "normalized" } },
    });
    expect(await run("preflight", { url: `${SKYCAST.broken}/` })).toMatchObject({ ok: false, warnings: expect.arrayContaining(["dead"]) });
    expect((await run("preflight-batch", { urls: [SKYCAST.forecast, SKYCAST.broken] })).summary).toMatchObject({ total: 2, ok: 1, blocked: 1 });
    expect((await run("forensics", { url: SKYCAST.forecast })).uptime.probes_7d).toBe(168);
    expect((await run("catalog-decoys")).entries.map((e: { url: string }) => e.url)).toEqual([SKYCAST.broken]);
    expect((await run("alternatives", { url: SKYCAST.broken })).alternatives).toHaveLength(2);
    expect(await run("whats-new", { limit: 5 })).toMatchObject({ limit: 5 });

    const watch = await run("watch", { url: SKYCAST.forecast, webhookUrl: HOOK });
    const status = await run("watch-status", { id: watch.watchId, secret: watch.secret });
    const direct = await fetch(`${svc.url}/api/v1/watch/${watch.watchId}`, { headers: { authorization: `Bearer ${watch.secret}` } });
    expect(status).toEqual(await direct.json());
    expect(await run("watch-unsubscribe", { id: watch.watchId, secret: watch.secret })).toMatchObject({ state: "unsubscribed" });

    const cert = await run("verified", { url: SKYCAST.healthyPattern, name: "Skycast" });
    expect(await run("verified-status", { certId: cert.certId })).toMatchObject({ certId: cert.certId, state: "verified" });
    const checkId = await insertDeliveryCheck(svc.ctx, SKYCAST.forecast);
    expect(await run("delivery-check", { id: checkId })).toMatchObject({ id: checkId, outcome: "delivered" });
    // A payer's signed word on its own settlement, once the indexer has read it (decision 0052).
    const key = svc.devnet.demoAccounts[2]!.privateKey;
    const { tx } = await settleOnChain(svc.devnet, key, svc.payer(PAYER), 2000n);
    await catchUp(devnetIndexer(svc.ctx, svc.devnet));
    const report = await signedReport(key, { url: SKYCAST.forecast, tx, outcome: "delivered", issued_at: Math.floor(svc.ctx.clock.now().getTime() / 1000) });
    expect(await run("report-outcome", report)).toMatchObject({ outcome: "delivered", tx: tx.toLowerCase() });
    expect(await run("delist-feed", { scope: "critical" })).toMatchObject({ mode: "snapshot" });
    expect(await run("delist-feed-diff")).toMatchObject({ mode: "diff" });
    const snapshot = await run("verdict-snapshot");
    expect(snapshot.entries.length).toBe(snapshot.count);
    expect(await run("verdict-deltas", { since: snapshot.seq })).toMatchObject({ since: snapshot.seq, truncated: false });

    const bundle = await run("credits");
    const credit = await run("credits-status", { id: bundle.creditId });
    expect(credit).toEqual(await (await fetch(`${svc.url}/api/v1/credits/${bundle.creditId}`)).json());
    expect(credit).toMatchObject({ balance: 1000, payerAddress: svc.payer(PAYER) });

    expect(called.sort()).toEqual(productRoutes.map((r) => r.id).sort());
  });

  it("returns the service's refusals as tool errors with the status and the body", async () => {
    const missing = toolError(await call("credits-status", { id: randomUUID() }));
    expect(missing).toMatchObject({
      status: 404,
      error: "credit_not_found",
      body: { error: "credit_not_found", message: "no credit bundle with this id" },
      payment_sent: false,
    });
    const before = await svc.balanceOf(svc.payer(PAYER));
    const notVerified = toolError(await call("verified", { url: SKYCAST.wholeHost, name: "Skycast all" }));
    expect(notVerified).toMatchObject({ status: 422, error: "not_verified", body: { tier: "not_verified" }, payment_sent: true, payment_settled: false });
    expect(await svc.balanceOf(svc.payer(PAYER))).toBe(before);
    // Input the route's schema refuses never reaches the service.
    const bad = await call("preflight", { url: "ftp://wx.example/x" });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0]!.text).toMatch(/must be an absolute http or https URL/);
  });

  it("refuses, unsent, a call priced above its spend cap, and pays nothing without a key", async () => {
    const capped = await connect({ LOOKOUT_PAYER_KEY: svc.devnet.demoAccounts[PAYER + 1]!.privateKey, LOOKOUT_MAX_PAYMENT_USDC: "1" });
    const before = await svc.balanceOf(svc.payer(PAYER + 1));
    expect(toolError(await call("delist-feed", {}, capped))).toMatchObject({ status: null, error: "spend_cap", payment_sent: false });
    expect(await svc.balanceOf(svc.payer(PAYER + 1))).toBe(before);
    const keyless = await connect({});
    expect(toolError(await call("forensics", { url: SKYCAST.forecast }, keyless))).toMatchObject({
      status: 402,
      error: "payment_required",
      body: { x402Version: 2 },
    });
    expect(await answer("preflight-trial", { url: SKYCAST.hourly })).toMatchObject({ ok: true });
  });

  it("signs an outcome report with its own wallet when the agent sends no signature", async () => {
    // A wallet of its own (demo account 4) that pays a Skycast listing, then reports through its MCP server.
    const key = svc.devnet.demoAccounts[3]!.privateKey;
    const own = await connect({ LOOKOUT_PAYER_KEY: key });
    const wallet = svc.devnet.demoAccounts[3]!.address;
    const tool = (await own.listTools()).tools.find((t) => t.name === "report-outcome")!;
    expect(tool.inputSchema.required).toEqual(["url", "outcome"]);
    expect(tool.description).toContain(`signs the report with its own wallet (${wallet}`);
    const keyless = (await (await connect({})).listTools()).tools.find((t) => t.name === "report-outcome")!;
    expect(keyless.inputSchema.required).toEqual(expect.arrayContaining(["payer", "issued_at", "signature"]));

    const { tx } = await settleOnChain(svc.devnet, key, svc.payer(PAYER), 1000n);
    await catchUp(devnetIndexer(svc.ctx, svc.devnet));
    const issued_at = Math.floor(svc.ctx.clock.now().getTime() / 1000);
    const report = { url: SKYCAST.hourly, tx, outcome: "undelivered", detail: "HTTP 500 after payment", issued_at };
    const accepted = await call("report-outcome", report, own);
    expect(accepted.isError, JSON.stringify(accepted.content)).toBeFalsy();
    expect(accepted.structuredContent).toMatchObject({ outcome: "undelivered", payer: wallet.toLowerCase(), tx: tx.toLowerCase(), amount_usdc: "0.001" });
    expect(toolError(await call("report-outcome", report, own))).toMatchObject({ status: 409, error: "already_reported" });
    // Another wallet's payment needs that wallet's signature: the server does not sign as someone else.
    expect(toolError(await call("report-outcome", { ...report, payer: svc.payer(PAYER) }, own))).toMatchObject({
      status: null,
      error: "client_error",
      message: expect.stringContaining("is not this server's wallet"),
    });
  });

  it("refuses to start on a base URL that is neither https nor loopback", async () => {
    for (const base of ["http://lookout.example", "https://user:pw@lookout.example"]) {
      const child = spawn(process.execPath, MCP, { env: { ...process.env, LOOKOUT_BASE_URL: base }, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((r) => child.once("exit", r));
      expect(code, base).toBe(2);
      expect(stderr).toMatch(/lookout-mcp: LOOKOUT_BASE_URL base URL must/);
    }
  });
});
