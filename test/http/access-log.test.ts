import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { captureLog, type CapturedLog } from "../helpers/log-capture.js";

/** Credit ids are bearer tokens: the access log and the metrics name the route, never the id. */

const CREDIT_ID = "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10";
let ctx: TestContext;
let captured: CapturedLog;
let app: App;

beforeAll(async () => {
  ctx = await createTestContext();
  captured = captureLog();
  app = createApp({ ctx: { ...ctx, log: captured.log }, routes: productRoutes });
});
afterAll(() => ctx.close());

describe("access log", () => {
  it("logs GET /api/v1/credits/{id} by its route pattern, and no X-Credit-Id header", async () => {
    const res = await app.request(`/api/v1/credits/${CREDIT_ID}`, { headers: { "x-credit-id": CREDIT_ID } });
    expect(res.status).toBe(404);
    const line = captured.lines.find((l) => l.msg === "request");
    expect(line).toMatchObject({ method: "GET", path: "/api/v1/credits/:id", status: 404 });
    expect(JSON.stringify(captured.lines)).not.toContain(CREDIT_ID.slice(0, 8));
    expect(await ctx.metrics.metrics()).not.toContain(CREDIT_ID.slice(0, 8));
  });

  it("masks id-shaped segments of an unmatched path", async () => {
    captured.lines.length = 0;
    expect((await app.request(`/api/v1/credit/${CREDIT_ID.toUpperCase()}/balance`)).status).toBe(404);
    expect(captured.lines.find((l) => l.msg === "request")).toMatchObject({ path: "/api/v1/credit/:id/balance", route: "not_found" });
    expect(JSON.stringify(captured.lines).toLowerCase()).not.toContain(CREDIT_ID.slice(0, 8));
  });
});
