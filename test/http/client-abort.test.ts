import { request } from "node:http";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.js";
import { defineRoute } from "../../src/http/registry.js";
import { listen, type RunningServer } from "../../src/http/serve.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { captureLog, type CapturedLog } from "../helpers/log-capture.js";
import { echoRoute } from "../helpers/test-routes.js";

/** A client that hangs up is neither an outage (503, warn/error logs) nor an answered request. */

let started: () => void = () => undefined;
let release: () => void = () => undefined;
const slowRoute = defineRoute({
  id: "test-slow",
  method: "post",
  path: "/api/v1/test-slow",
  price: null,
  title: "Slow (test route)",
  summary: "Answers when the test releases it.",
  description: "Exists only in tests.",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: z.object({ ok: z.boolean() }),
  examples: { request: {}, response: { ok: true } },
  errors: [],
  handler: async () => {
    await new Promise<void>((resolve) => ((release = resolve), started()));
    return { ok: true };
  },
});

let ctx: TestContext;
let captured: CapturedLog;
let server: RunningServer;
beforeAll(async () => {
  ctx = await createTestContext();
  captured = captureLog();
  server = await listen(createApp({ ctx: { ...ctx, log: captured.log }, routes: [echoRoute, slowRoute] }), "127.0.0.1", 0);
});
afterAll(async () => {
  await server?.close(1000);
  await ctx?.close();
});
beforeEach(() => void (captured.lines.length = 0));

/** Sends the headers and `sent` bytes of a body declared `declared` bytes long; returns a hang-up. */
function open(path: string, sent: string, declared = Buffer.byteLength(sent)): () => void {
  const req = request(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "content-length": String(declared) } });
  req.on("error", () => undefined); // the hang-up is the point
  req.write(sent);
  return () => req.destroy();
}

async function expectCountedAsAborted(route: string): Promise<void> {
  const line = await captured.waitFor((l) => l.msg === "client aborted");
  expect(line).toMatchObject({ level: 30, route, status: 499 });
  expect(captured.lines.filter((l) => l.level >= 40)).toEqual([]);
  const counted = (await ctx.metrics.getSingleMetric("lookout_http_requests_total")!.get()).values;
  expect(counted.map((v) => [v.labels.route, v.labels.status, v.value])).toEqual([[route, "499", 1]]);
  ctx.metrics.resetMetrics();
}

describe("a client that aborts mid-request", () => {
  it("while a slow route works: counted as 499 'client aborted', not as its 200", async () => {
    const running = new Promise<void>((resolve) => (started = resolve));
    const hangUp = open("/api/v1/test-slow", "{}");
    await running;
    hangUp();
    await new Promise((r) => setTimeout(r, 100)); // the server sees the socket close
    release();
    await expectCountedAsAborted("test-slow");
  });

  it("while its body is still arriving: no 503 'dependency unavailable' (Node's ECONNRESET 'aborted')", async () => {
    const hangUp = open("/api/v1/test-echo", '{"url":"https://a.exa', 200);
    await new Promise((r) => setTimeout(r, 100)); // the app is reading the body
    hangUp();
    await expectCountedAsAborted("test-echo");
  });
});
