import { execFile } from "node:child_process";
import { copyFile, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { installedTree, packAndInstall, REPO, type PackedProject } from "../helpers/packed-project.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

const exec = promisify(execFile);
// The examples are TypeScript: tsx strips the types, with no source condition, so their imports
// resolve to the installed tarballs' dist.
const TSX = pathToFileURL(resolve(REPO, "node_modules/tsx/dist/loader.mjs")).href;

let app: PackedProject;
let svc: PaidService;
let fleet: DemoFleet;
let healthy: DemoEndpoint;
let switched: DemoEndpoint;
let signature: string;

const key = (i: number) => svc.devnet.demoAccounts[i]!.privateKey;
/** Runs `args` with plain node in the installed project; its stdout as JSON when it is JSON. */
async function node(args: string[], env: Record<string, string> = {}) {
  const { stdout } = await exec(process.execPath, args, { cwd: app.dir, env: app.env({ LOOKOUT_BASE_URL: svc.url, ...env }), timeout: 60_000 });
  return stdout;
}
const script = async (name: string, args: string[], env: Record<string, string>) => {
  await copyFile(resolve(import.meta.dirname, "installed", name), join(app.dir, name));
  return JSON.parse(await node([name, ...args], env));
};

beforeAll(async () => {
  // Packing and installing run beside the service's start and the fleet's hour of probes.
  [app, svc] = await Promise.all([
    packAndInstall(),
    (async () => {
      const s = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
      fleet = await startProbedDemoFleet(s.ctx, s.devnet);
      return s;
    })(),
  ]);
  healthy = fleet.endpoints.find((e) => e.kind === "healthy" && e.url.endsWith("/weather/current"))!;
  switched = fleet.endpoints.find((e) => e.kind === "price_switch")!;
}, 150_000);
afterAll(async () => {
  await fleet?.stop();
  await svc?.close();
  await app?.close();
});

describe("the packed packages, installed into an empty project", () => {
  it("hold only dist, package.json, README and LICENSE, and the client brings no server dependency", async ({ annotate }) => {
    await annotate(`npm pack (with builds) ${app.timings.packMs} ms, npm install ${app.timings.installMs} ms`);
    expect(app.packed.map((p) => p.name)).toEqual(["@x402-lookout/contracts", "@x402-lookout/client", "@x402-lookout/mcp"]);
    for (const { name, files } of app.packed) {
      expect(
        files.filter((f) => !/^(dist\/.+\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/.test(f)),
        name,
      ).toEqual([]);
      expect(files, name).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json", "dist/index.js", "dist/index.d.ts"]));
    }
    const tree = await installedTree(app.dir, "@x402-lookout/client");
    expect([...tree]).toEqual(expect.arrayContaining(["@x402-lookout/contracts", "@x402/core", "@x402/fetch", "zod", "jose"]));
    expect([...tree].filter((n) => /^(@electric-sql\/pglite|@foundry-rs\/anvil.*|solc|undici)$/.test(n))).toEqual([]);
  });

  it("the typed client answers the free trial and a paid preflight, whose signature it verified", async () => {
    const out = await script("client-calls.mjs", [healthy.url], { PAYER_KEY: key(1) });
    expect(out.resolved).toBe(pathToFileURL(join(app.dir, "node_modules/@x402-lookout/client/dist/index.js")).href);
    expect(out.trial).toMatchObject({ ok: true, recommended_action: "pay" });
    expect(out.paid).toMatchObject({ ok: true, recommended_action: "pay", signature: expect.any(String) });
    expect(out.verified.paid).toMatchObject({ url: healthy.url, recommended_action: "pay", observed_at: out.paid.observed_at });
    expect(out.calls).toEqual([
      { routeId: "preflight-trial", paymentSent: false, transaction: null },
      { routeId: "preflight", paymentSent: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    ]);
    signature = out.paid.signature;
  });

  it("examples/verify-verdict.ts verifies that signature against the service's keys", async () => {
    await mkdir(join(app.dir, "examples"), { recursive: true });
    await copyFile(resolve(REPO, "examples/verify-verdict.ts"), join(app.dir, "examples/verify-verdict.ts"));
    const out = JSON.parse(await node(["--import", TSX, "examples/verify-verdict.ts", signature]));
    expect(out.claims).toMatchObject({ url: healthy.url, ok: true, recommended_action: "pay" });
    expect(out.kid).toEqual(expect.any(String));
  });

  it("lookoutPolicy on the agent's x402Client pays the healthy endpoint and refuses the switched quote", async () => {
    const agent = svc.payer(2);
    const before = await svc.balanceOf(agent);
    const out = await script("policy-agent.mjs", [`${healthy.url}?city=Lisbon`, switched.url], { PAYER_KEY: key(2), NETWORK: svc.devnet.network });
    expect(out[0]).toEqual({ url: `${healthy.url}?city=Lisbon`, status: 200, paid: true });
    expect(out[1]).toMatchObject({ url: switched.url, refused: expect.stringMatching(/price_switch|skip/) });
    // The healthy price and the policy's preflights of 0.001 USDC; never the switched 0.9 USDC.
    const spent = before - (await svc.balanceOf(agent)) - BigInt(healthy.amount);
    expect(spent > 0n && spent < 10_000n && spent % 1_000n === 0n, `spent ${spent}`).toBe(true);
  });

  it("examples/guarded-agent.ts pays the healthy endpoint and refuses the switched quote", async () => {
    await copyFile(resolve(REPO, "examples/guarded-agent.ts"), join(app.dir, "examples/guarded-agent.ts"));
    const lines = (await node(["--import", TSX, "examples/guarded-agent.ts", `${healthy.url}?city=Lisbon`, switched.url], { PAYER_KEY: key(3) }))
      .trim()
      .split("\n");
    expect(lines[0]).toMatch(new RegExp(`^paid ${healthy.url}\\?city=Lisbon: HTTP 200`));
    expect(lines[1]).toMatch(new RegExp(`^refused ${switched.url}: `));
  });

  it("npx lookout-mcp serves the tools, free and paid, from the installed bin", async () => {
    const mcp = new Client({ name: "install-test", version: "1.0.0" });
    const env = app.env({ LOOKOUT_BASE_URL: svc.url, LOOKOUT_PAYER_KEY: key(4) });
    await mcp.connect(new StdioClientTransport({ command: "npx", args: ["lookout-mcp"], cwd: app.dir, env, stderr: "pipe" }));
    try {
      expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(productRoutes.map((r) => r.id));
      expect(mcp.getInstructions()).toContain("preflight-trial");
      for (const name of ["preflight-trial", "preflight"]) {
        const result = (await mcp.callTool({ name, arguments: { url: healthy.url } })) as CallToolResult;
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ ok: true, recommended_action: "pay" });
      }
    } finally {
      await mcp.close();
    }
  });
});
