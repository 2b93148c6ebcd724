import { request, Agent } from "node:http";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { listen, type RunningServer } from "../../src/http/serve.js";
import { createTestContext, type TestContext } from "../helpers/context.js";

/** Errors only a real socket can provoke (found by the fuzz suite's loopback property). */

let ctx: TestContext;
let server: RunningServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  ctx = await createTestContext();
  server = await listen(createApp({ ctx: { ...ctx, metrics: new Registry() }, routes: productRoutes }), "127.0.0.1", 0);
});
afterAll(async () => {
  agent.destroy();
  await server?.close(1000);
  await ctx?.close();
});

function send(headers: Record<string, string>, body: Buffer, chunked = false): Promise<{ status: number; headers: Record<string, unknown>; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/v1/preflight-trial`, { method: "POST", headers, agent }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    if (chunked) for (let i = 0; i < body.length; i += 8192) req.write(body.subarray(i, i + 8192));
    else req.write(body);
    req.end();
  });
}

describe("errors on the wire", () => {
  it("a 413 that leaves the body unread closes the connection, so a keep-alive client's next request is answered", async () => {
    const big = Buffer.from(`{"url":"https://a.example/${"x".repeat(200_000)}"}`);
    for (const chunked of [true, false, true]) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(big.length) }),
      };
      const res = await send(headers, big, chunked);
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe("close");
      const next = await send({ "content-type": "application/json" }, Buffer.from('{"url":5}'));
      expect(next.status).toBe(400);
    }
  });

  it("headers over 16 KiB answer 431 with the JSON error body", async () => {
    const res = await send({ "content-type": "application/json", "x-filler": "y".repeat(20_000) }, Buffer.from("{}"));
    expect(res.status).toBe(431);
    expect(res.json).toMatchObject({ error: "headers_too_large", message: expect.any(String), request_id: expect.any(String) });
  });
});
