import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../src/http/registry.js";
import { ApiError } from "../../src/http/errors.js";
import { httpUrlField } from "@x402-lookout/contracts/common";

/** Routes registered only in tests, to prove the registry machinery without a product route. */
export const echoRoute = defineRoute({
  id: "test-echo",
  method: "post",
  path: "/api/v1/test-echo",
  price: null,
  product: "Echo",
  title: "Echo (test route)",
  summary: "Echoes a URL back.",
  description: "A route that exists only in tests.\n\nIt proves validation, attribution and errors.",
  body: z.object({ url: httpUrlField(), n: z.number().int().min(1).max(10).default(1) }),
  response: z.object({ url: z.string(), n: z.number().int(), observed_at: z.string() }),
  examples: {
    request: { url: "https://api.example.com/x", n: 2 },
    response: { url: "https://api.example.com/x", n: 2, observed_at: "2026-11-20T12:00:00.000Z" },
  },
  errors: [
    { status: 400, when: "url missing or not http(s)" },
    { status: 503, when: "dependency unavailable" },
  ],
  handler: async ({ body }, { services, setHeader }) => {
    if (body.url.includes("fail-transient")) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    if (body.url.includes("fail-conflict")) throw new ApiError(409, "conflict", "conflict for test");
    setHeader("x-echo", String(body.n));
    return { url: body.url, n: body.n, observed_at: services.now().toISOString() };
  },
});

export const plainRoute = defineRoute({
  id: "test-plain",
  method: "post",
  path: "/api/v1/test-plain",
  price: "0.001",
  title: "Plain (test route)",
  summary: "A paid route without attribution.",
  description: "Exists only in tests.",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: z.object({ ok: z.boolean() }),
  examples: { request: {}, response: { ok: true } },
  errors: [{ status: 503, when: "dependency unavailable" }],
  handler: async () => ({ ok: true }),
});

/** A paid route whose handler fails like a database outage, to prove nothing settles. */
export const failingPaidRoute = defineRoute({
  id: "test-failing",
  method: "post",
  path: "/api/v1/test-failing",
  price: "0.001",
  title: "Failing (test route)",
  summary: "Always fails with a dependency outage.",
  description: "Exists only in tests.",
  body: z.object({}).passthrough(),
  bodyOptional: true,
  response: z.object({ ok: z.boolean() }),
  examples: { request: {}, response: { ok: true } },
  errors: [{ status: 503, when: "always" }],
  handler: async () => {
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  },
});

/** A paid route that a credit bundle can pay, like preflight. */
export const creditPaidRoute = defineRoute({
  id: "test-credit-paid",
  method: "post",
  path: "/api/v1/test-credit-paid",
  price: "0.001",
  acceptsCredits: true,
  title: "Credit-paid (test route)",
  summary: "Answers when paid per call or from a credit bundle.",
  description: "Exists only in tests.",
  body: z.object({ fail: z.boolean().default(false) }),
  bodyOptional: true,
  response: z.object({ paidWith: z.string() }),
  examples: { request: {}, response: { paidWith: "credit" } },
  errors: [{ status: 503, when: "fail=true" }],
  handler: async ({ body }, ctx) => {
    if (body.fail) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    return { paidWith: ctx.payment?.kind ?? "none" };
  },
});

/** Reads started by `preparedRoute`'s prepare, in order; the tests look at what started when. */
export const preparedReads: string[] = [];

/**
 * A credit-paid route with a read-only `prepare`, like preflight's catalog read: the read starts
 * once the input is valid and the request carries a payment, and its value reaches the handler.
 */
export const preparedRoute = defineRoute({
  id: "test-prepared",
  method: "post",
  path: "/api/v1/test-prepared",
  price: "0.001",
  acceptsCredits: true,
  title: "Prepared (test route)",
  summary: "Reads before the payment is settled, answers after.",
  description: "Exists only in tests.",
  body: z.object({ tag: z.string(), failRead: z.boolean().default(false) }),
  response: z.object({ read: z.string(), paidWith: z.string() }),
  examples: { request: { tag: "a" }, response: { read: "read:a", paidWith: "credit" } },
  errors: [{ status: 503, when: "failRead=true" }],
  prepare: async ({ body }) => {
    preparedReads.push(body.tag);
    if (body.failRead) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    return `read:${body.tag}`;
  },
  handler: async (_input, ctx, prepared) => ({ read: prepared ? await prepared : "not started", paidWith: ctx.payment?.kind ?? "none" }),
});
