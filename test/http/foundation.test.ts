import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";
import { echoRoute } from "../helpers/test-routes.js";

let ctx: TestContext;
let app: App;

beforeAll(async () => {
  ctx = await createTestContext();
  app = createApp({ ctx, routes: [echoRoute], validateResponses: true });
});
afterAll(() => ctx.close());

const post = (path: string, body: string | undefined, headers: Record<string, string> = { "content-type": "application/json" }) =>
  app.request(path, { method: "POST", body, headers });

describe("route registry", () => {
  it("validates input, runs the handler and adds attribution body and headers", async () => {
    const res = await post("/api/v1/test-echo", JSON.stringify({ url: "https://api.example.com/x", n: 3 }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-signal-authority")).toBe("http://lookout.test");
    expect(res.headers.get("x-signal-product")).toBe("Echo by x402 Lookout");
    expect(res.headers.get("link")).toBe('<http://lookout.test/spec>; rel="describedby"');
    expect(res.headers.get("x-echo")).toBe("3");
    const json = await body(res);
    expect(json).toMatchObject({ url: "https://api.example.com/x", n: 3, observed_at: "2026-11-20T12:00:00.000Z" });
    expect(json.attribution).toEqual({
      authority: "http://lookout.test",
      product: "Echo by x402 Lookout",
      claim: expect.stringContaining("not an endorsement"),
      url: "http://lookout.test",
      spec: "http://lookout.test/spec",
    });
  });

  it("answers one JSON error shape with the request id", async () => {
    const res = await post("/api/v1/test-echo", JSON.stringify({ url: "ftp://x" }), { "content-type": "application/json", "x-request-id": "req-12345678" });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-request-id")).toBe("req-12345678");
    expect(await body(res)).toEqual({ error: "bad_request", message: "url: must be an absolute http or https URL", request_id: "req-12345678" });
  });

  it("names the failing field and keeps limits", async () => {
    const res = await post("/api/v1/test-echo", JSON.stringify({ url: "https://a.example", n: 11 }));
    expect(res.status).toBe(400);
    expect((await body(res)).message).toMatch(/^n: /);
  });

  it.each([
    ["malformed JSON", "{not json", { "content-type": "application/json" }, 400, "malformed_json"],
    ["missing body", undefined, { "content-type": "application/json" }, 400, "bad_request"],
    ["wrong content type", "url=https://a.example", { "content-type": "application/x-www-form-urlencoded" }, 415, "unsupported_media_type"],
    ["no content type", '{"url":"https://a.example"}', {}, 415, "unsupported_media_type"],
  ])("%s", async (_name, payload, headers, status, code) => {
    const res = await post("/api/v1/test-echo", payload, headers);
    expect(res.status).toBe(status);
    const json = await body(res);
    expect(json.error).toBe(code);
    expect(typeof json.message).toBe("string");
    expect(typeof json.request_id).toBe("string");
  });

  it("refuses bodies over 128 KiB with 413", async () => {
    const big = JSON.stringify({ url: "https://a.example", pad: "x".repeat(130 * 1024) });
    const res = await post("/api/v1/test-echo", big);
    expect(res.status).toBe(413);
    expect((await body(res)).error).toBe("payload_too_large");
  });

  it("maps a dependency failure to 503 and a typed service error to its status", async () => {
    const down = await post("/api/v1/test-echo", JSON.stringify({ url: "https://fail-transient.example" }));
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("30");
    expect((await body(down)).error).toBe("service_unavailable");
    const conflict = await post("/api/v1/test-echo", JSON.stringify({ url: "https://fail-conflict.example" }));
    expect(conflict.status).toBe(409);
  });

  it("answers unknown paths with the JSON error body", async () => {
    const res = await app.request("/nope");
    expect(res.status).toBe(404);
    expect((await body(res)).error).toBe("not_found");
  });
});

describe("contract surface", () => {
  it("serves an OpenAPI 3.1.0 document that a real validator accepts", async () => {
    const doc = await body(await app.request("/openapi.json"));
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.paths["/api/v1/test-echo"].post.operationId).toBe("test-echo");
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("documents the attribution field in the response schema of attributed routes", async () => {
    const doc = await body(await app.request("/openapi.json"));
    const schema = doc.paths["/api/v1/test-echo"].post.responses["200"].content["application/json"].schema;
    expect(JSON.stringify(schema)).toContain("Attribution");
  });

  it("serves the landing page and the spec page", async () => {
    const landing = await (await app.request("/")).text();
    expect(landing).toContain("x402 Lookout");
    expect(landing).toContain('href="/spec"');
    expect(landing).toContain('href="/openapi.json"');
    const spec = await app.request("/spec");
    expect(spec.status).toBe(200);
    const text = await spec.text();
    expect(text).toContain("Echo (test route)");
    expect(text).toContain("url: must be an absolute http or https URL".split(":")[0]);
  });
});

describe("operations", () => {
  it("reports readiness on /healthz", async () => {
    ctx.readiness.expectRoles(["api"]);
    expect((await app.request("/healthz")).status).toBe(503);
    ctx.readiness.markStarted("api");
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ status: "ok", migrated: true, started: ["api"] });
  });

  it("exposes per-route request counts and latency on /metrics", async () => {
    await post("/api/v1/test-echo", JSON.stringify({ url: "https://a.example" }));
    const text = await (await app.request("/metrics")).text();
    expect(text).toMatch(/lookout_http_requests_total\{route="test-echo",method="POST",status="200"\} \d+/);
    expect(text).toContain("lookout_http_request_duration_seconds_bucket");
  });
});
