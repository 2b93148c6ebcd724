import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { DELIVERY_CHECK_JWS } from "@x402-lookout/contracts/delivery/delivery-check";
import { createApp, type App } from "../../src/http/app.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { deleteOlderThan, RETENTION_MS } from "../../src/db/retention.js";
import { newCheckId } from "../../src/services/delivery/ledger.js";
import { DAY } from "../../src/services/signals/constants.js";
import { createTestContext, type TestContext } from "../helpers/context.js";
import { body } from "../helpers/http.js";

let ctx: TestContext;
let app: App;
const id = newCheckId();
const evidence = {
  challenge: { status: 402, payment_required: { x402Version: 2 }, requirement: { amount: "1000" }, requirement_digest: "d1" },
  request: { method: "GET", url: "https://api.example/w?city=Oslo", headers: { "payment-signature": "[812 characters]" }, body: null, input: "variant" },
  answer: {
    status: 500,
    headers: { "content-type": "text/plain" },
    content_type: "text/plain",
    size: 4,
    sha256: "ab",
    first_bytes_base64: "Ym9vbQ==",
    truncated: false,
  },
  timings: { challenge_ms: 12, paid_request_ms: 40, total_ms: 70 },
  settlement: { receipt: { success: true }, tx: "0x" + "cd".repeat(32), chain: "used", amount_atomic: "1000" },
  judgment: { outcome: "undelivered", reason: "status_500" },
};

beforeAll(async () => {
  ctx = await createTestContext();
  app = createApp({ ctx, routes: productRoutes });
  const at = ctx.clock.now();
  await ctx.db.db
    .insertInto("delivery_checks")
    .values([
      {
        id,
        url: "https://api.example/w",
        method: "GET",
        host: "api.example",
        state: "done",
        outcome: "undelivered",
        reason: "status_500",
        spent_atomic: "1000",
        tx: evidence.settlement.tx,
        payer: "0x" + "2".repeat(40),
        started_at: at,
        finished_at: at,
        evidence,
      },
      {
        id: newCheckId(),
        url: "https://api.example/old",
        method: "GET",
        host: "api.example",
        state: "done",
        outcome: "delivered",
        started_at: new Date(at.getTime() - 31 * DAY),
      },
    ])
    .execute();
});
afterAll(() => ctx.close());

describe("GET /api/v1/delivery-checks/{id}", () => {
  it("states the check and signs exactly what it states, verifiable offline with the published keys", async () => {
    const res = await app.request(`/api/v1/delivery-checks/${id}`);
    expect(res.status).toBe(200);
    const doc = await body(res);
    expect(doc).toMatchObject({
      id,
      outcome: "undelivered",
      reason: "status_500",
      paid_usdc: "0.001",
      state: "done",
      jwks_url: "http://lookout.test/.well-known/jwks.json",
    });
    expect(doc.evidence).toEqual(evidence);
    const jwks = (await body(await app.request("/.well-known/jwks.json"))) as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(doc.document, createLocalJWKSet(jwks), { typ: DELIVERY_CHECK_JWS.typ });
    expect(protectedHeader.alg).toBe("EdDSA");
    const { document: _d, jwks_url: _j, ...stated } = doc;
    expect(payload).toEqual(stated);
  });

  it("answers 400 for a malformed id and 404 for an unknown one or one older than 30 days, as JSON", async () => {
    const bad = await app.request("/api/v1/delivery-checks/dc_<script>");
    expect(bad.status).toBe(400);
    expect((await body(bad)).error).toBeTruthy();
    const unknown = await app.request(`/api/v1/delivery-checks/${newCheckId()}`);
    expect(unknown.status).toBe(404);
    expect((await body(unknown)).error).toMatch(/delivery_check_not_found|not_found/);
    const rows = await ctx.db.db.selectFrom("delivery_checks").select("id").where("url", "=", "https://api.example/old").execute();
    expect((await app.request(`/api/v1/delivery-checks/${rows[0]!.id}`)).status).toBe(404);
  });

  it("keeps checks 30 days, and an open one (it still holds budget) whatever its age", async () => {
    const old = new Date(ctx.clock.now().getTime() - 40 * DAY);
    await ctx.db.db
      .insertInto("delivery_checks")
      .values({ id: newCheckId(), url: "https://api.example/open", method: "GET", host: "api.example", state: "paying", started_at: old })
      .execute();
    await deleteOlderThan(ctx.db.db, "delivery_checks", new Date(ctx.clock.now().getTime() - RETENTION_MS.delivery_checks));
    const left = await ctx.db.db.selectFrom("delivery_checks").select("url").orderBy("url").execute();
    expect(left.map((r) => r.url)).toEqual(["https://api.example/open", "https://api.example/w"]);
  });
});
