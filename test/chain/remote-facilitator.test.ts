import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/chain/devnet.js";
import { createLocalFacilitator, createRemoteFacilitator } from "../../src/chain/facilitator.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { startTestDevnet } from "./helpers.js";

let devnet: Devnet;
let server: Server;
let baseUrl: string;
const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];

/** A real facilitator over HTTP (the x402 /verify, /settle, /supported routes) backed by the devnet. */
function startHttpFacilitator(): Promise<Server> {
  const local = createLocalFacilitator(devnet);
  const http = createServer((req, res) => {
    seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      const run = async () => {
        if (req.method === "GET" && req.url === "/supported") return reply(200, await local.getSupported());
        const { paymentPayload, paymentRequirements } = JSON.parse(body) as {
          paymentPayload: PaymentPayload;
          paymentRequirements: PaymentRequirements;
        };
        if (req.method === "POST" && req.url === "/verify") return reply(200, await local.verify(paymentPayload, paymentRequirements));
        if (req.method === "POST" && req.url === "/settle") return reply(200, await local.settle(paymentPayload, paymentRequirements));
        return reply(404, { error: "not found" });
      };
      run().catch((error: unknown) => reply(500, { error: String(error) }));
    });
  });
  return new Promise((resolve) => http.listen(0, "127.0.0.1", () => resolve(http)));
}

beforeAll(async () => {
  devnet = await startTestDevnet();
  server = await startHttpFacilitator();
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await devnet?.stop();
});

describe("createRemoteFacilitator", () => {
  it("pays through an HTTP facilitator and sends the auth header on every call", async () => {
    const remote = createRemoteFacilitator(`${baseUrl}/`, { name: "X-Api-Key", value: "k-123" });
    const supported = await remote.getSupported();
    expect(supported.kinds).toContainEqual({ x402Version: 2, scheme: "exact", network: "eip155:84532" });

    const accepts: PaymentRequirements = {
      scheme: "exact",
      network: devnet.network,
      asset: devnet.usdcAddress,
      amount: "1000",
      payTo: devnet.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    };
    const demo = devnet.demoAccounts[4];
    if (!demo) throw new Error("missing demo account");
    const payer = privateKeyToAccount(demo.privateKey);
    const payload = await new x402Client()
      .register(devnet.network, new ExactEvmScheme(payer))
      .createPaymentPayload({ x402Version: 2, resource: { url: "http://lookout.test/x" }, accepts: [accepts] });

    const before = await devnet.publicClient.readContract({
      address: devnet.usdcAddress,
      abi: testUsdcAbi,
      functionName: "balanceOf",
      args: [devnet.payTo],
    });
    expect(await remote.verify(payload, accepts)).toMatchObject({ isValid: true, payer: payer.address });
    expect(await remote.settle(payload, accepts)).toMatchObject({ success: true, network: "eip155:84532" });
    const after = await devnet.publicClient.readContract({
      address: devnet.usdcAddress,
      abi: testUsdcAbi,
      functionName: "balanceOf",
      args: [devnet.payTo],
    });
    expect(after - before).toBe(1000n);

    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /supported", "POST /verify", "POST /settle"]);
    for (const request of seen) expect(request.headers["x-api-key"]).toBe("k-123");
  });

  it("sends no auth header when none is configured", async () => {
    seen.length = 0;
    await createRemoteFacilitator(baseUrl).getSupported();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers["x-api-key"]).toBeUndefined();
  });
});
