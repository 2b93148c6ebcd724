import { request as httpRequest, Agent } from "node:http";
import fc from "fast-check";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/http/app.js";
import { listen, type RunningServer } from "../../src/http/serve.js";
import { MAX_BODY_BYTES } from "../../src/http/input.js";
import { isPaid, type AnyRouteDef } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { ErrorBodySchema, PaymentRequiredSchema } from "@x402-lookout/contracts/common";
import type { PaidRoute } from "../../src/http/payment/types.js";
import { createWatch } from "../../src/services/watch/create-watch.js";
import { fingerprint, type DbFingerprint } from "../helpers/db-fingerprint.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";
import {
  acceptedBy,
  bodyText,
  contentType,
  creditHeader,
  headerValue,
  idSegment,
  junkHeaders,
  oversizedBody,
  paymentSignature,
  RAW_TRAVERSALS,
  type FuzzRequest,
} from "./arbitraries.js";

/**
 * Issue 9, part 3: at least 10,000 generated malformed requests across every route of the
 * registry get only documented 4xx statuses with a JSON error body (the PaymentRequired body for
 * 402), never a 5xx, and leave the database exactly as it was. Most go to the app in process
 * (fast); the last property sends what only a socket can: repeated header lines, chunked and
 * declared-length bodies, over real loopback HTTP.
 *
 * The seed is fixed so CI runs the same requests every time; FUZZ_SEED=<n> explores others. A
 * failure prints the seed and the counterexample's path: pass both back to replay it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 4_020_009);
const RUNS = { bodies: 5_000, payments: 2_500, ids: 2_000, credit: 600, wire: 400 } as const;
const TOTAL_RUNS = Object.values(RUNS).reduce((a, b) => a + b, 0);

// The platform's own answers on every body route (landing page): malformed JSON 400, a body
// over 128 KiB 413, a non-JSON content type 415; and 404 for a method or path no route serves
// (over a socket also 431, headers over 16 KiB).
const PLATFORM_BODY_STATUSES = [400, 413, 415];
const NO_ROUTE = new Set([404, 405]);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const routes = productRoutes;
const byId = new Map(routes.map((r) => [r.id, r]));
const bodyRoutes = routes.filter((r) => r.body);
const idRoutes = routes.filter((r) => r.params);
const paidRoutes = routes.filter(isPaid);
const preflight = routes.find((r) => r.id === "preflight")!;

/** Every 4xx status a route documents: its error list, 402 when paid, the platform's body errors. */
function documented(def: AnyRouteDef): Set<number> {
  const s = new Set<number>(def.errors.map((e) => e.status).filter((status) => status >= 400 && status < 500));
  if (isPaid(def)) s.add(402);
  if (def.body) for (const status of PLATFORM_BODY_STATUSES) s.add(status);
  return s;
}

let svc: PaidService;
let app: App;
let server: RunningServer;
let before: DbFingerprint;
let creditId: string;
let watchId: string;
let sent = 0;
/** Each paid route's well-formed request: its example, and for deltas a since this database can answer. */
const wellFormed = new Map<string, unknown>();

beforeAll(async () => {
  svc = await startPaidService({ routes });
  // The fuzzed app: in process, so 10,000 requests take seconds; the same routes, gate and database.
  app = createApp({ ctx: { ...svc.ctx, metrics: new Registry() }, routes, gate: svc.gate });
  server = await listen(app, "127.0.0.1", 0);
  const { ctx } = svc;
  // A real credit bundle and a real watch, so garbage can be aimed next to valid ids.
  const network = svc.devnet.network;
  const claim = await ctx.services.payments.claim({
    key: `${network}:0x${"1".repeat(40)}:0x${"2".repeat(64)}`,
    route: "credits",
    requestId: "fuzz-seed",
    payer: null,
    network,
    scheme: "exact",
    asset: svc.devnet.usdcAddress,
    payTo: svc.devnet.payTo,
    amountAtomic: "500000",
    authorizer: "0x" + "1".repeat(40),
    nonce: "0x" + "2".repeat(64),
    validBefore: "4102444800",
    identifierHash: null,
  });
  await ctx.services.payments.settled(claim!, { transaction: "0x" + "3".repeat(64), network, payer: null });
  creditId = (await ctx.services.credits.mint({ paymentId: claim!.id, payer: null, network, amountAtomic: "500000" })).creditId;
  watchId = (
    await createWatch(
      { db: ctx.db.db, clock: ctx.clock, rules: { allowPrivate: false } },
      { url: "https://a.example/x", webhookUrl: "https://93.184.216.34/hook" },
    )
  ).watchId;
  for (const def of paidRoutes) wellFormed.set(def.id, def.examples.request ?? {});
  wellFormed.set("verdict-deltas", { since: (await ctx.services.verdictFeed.snapshot()).seq });
  before = await fingerprint(ctx.db.db);
}, 120_000);

afterAll(async () => {
  await server?.close(1000);
  await svc?.close();
});

async function send(r: FuzzRequest): Promise<Response> {
  sent++;
  return app.request(r.path, { method: r.method, headers: r.headers, ...(r.body ? { body: r.body } : {}) });
}

/** The answer is a documented 4xx with a JSON body of the documented shape. */
async function expectDocumented(r: FuzzRequest, res: Response, allowed: Set<number>): Promise<void> {
  const text = await res.text();
  const what = () => `${r.method} ${r.path.slice(0, 200)} -> ${res.status} ${text.slice(0, 300)}`;
  if (!allowed.has(res.status)) throw new Error(`undocumented status (allowed ${[...allowed].join(", ")}): ${what()}`);
  if (!/^application\/json/.test(res.headers.get("content-type") ?? "")) throw new Error(`not JSON: ${what()}`);
  const body: unknown = JSON.parse(text);
  const shape = res.status === 402 ? PaymentRequiredSchema.extend({ error: PaymentRequiredSchema.shape.error.unwrap() }) : ErrorBodySchema;
  const parsed = shape.safeParse(body);
  if (!parsed.success) throw new Error(`body does not match the ${res.status === 402 ? "PaymentRequired" : "error"} shape: ${what()}`);
}

const requirementOf = (def: AnyRouteDef) => svc.gate.paymentRequired(def as PaidRoute).accepts[0] as unknown as Record<string, unknown>;
/** The text without lone surrogates (encodeURIComponent refuses them). */
const wellFormedText = (text: string) =>
  Array.from(text)
    .filter((c) => !/^[\uD800-\uDFFF]$/.test(c))
    .join("");
const bytes = (text: string) => new TextEncoder().encode(text);
const withType = (type: string | undefined, headers: Record<string, string> = {}) => (type === undefined ? headers : { ...headers, "content-type": type });

describe("the fuzz harness", () => {
  it("reaches the payment gate with every paid route's example body (so forged payments are tested)", async () => {
    for (const def of paidRoutes) {
      const res = await send({
        method: def.method.toUpperCase(),
        path: def.path,
        headers: { "content-type": "application/json" },
        body: bytes(JSON.stringify(def.examples.request ?? {})),
      });
      expect(res.status, def.id).toBe(402);
    }
    expect(TOTAL_RUNS).toBeGreaterThanOrEqual(10_000);
  });
});

describe("malformed requests get documented 4xx answers and change nothing", () => {
  it(`bodies: wrong types, duplicate keys, unicode, oversized values, broken JSON, wrong content types (${RUNS.bodies} runs)`, async () => {
    const request = fc.constantFrom(...bodyRoutes).chain((def) =>
      fc.record({
        route: fc.constant(def.id),
        text: fc.oneof({ weight: 30, arbitrary: bodyText(def) }, { weight: 1, arbitrary: oversizedBody }, { weight: 1, arbitrary: fc.constant("") }),
        type: contentType,
        junk: junkHeaders,
        payment: isPaid(def) ? fc.option(paymentSignature(requirementOf(def)), { freq: 4 }) : fc.constant(null),
        credit: fc.option(creditHeader, { freq: 4 }),
        variant: fc.constantFrom("route", "route", "route", "route", "route", "route", "query", "wrong-method", "trailing-slash"),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, text, type, junk, payment, credit, variant }) => {
        const def = byId.get(route)!;
        const onRoute = variant === "route" || variant === "query";
        const wellFormed = acceptedBy(def.body, text, def.bodyOptional ?? false) && (text.trim() === "" || JSON_TYPE.test(type ?? ""));
        // A well-formed request to a free route is served (and counted): not what this suite sends.
        fc.pre(!(onRoute && wellFormed && !isPaid(def)));
        const headers: Record<string, string> = withType(type, { ...junk });
        if (payment) headers["payment-signature"] = payment;
        if (credit) headers["x-credit-id"] = credit;
        const method = variant === "wrong-method" ? (def.method === "post" ? "PUT" : "PATCH") : def.method.toUpperCase();
        const path =
          variant === "query"
            ? `${def.path}?url=${encodeURIComponent(wellFormedText(text.slice(0, 100)))}&limit=-1`
            : variant === "trailing-slash"
              ? `${def.path}/`
              : def.path;
        const r = { method, path, headers, body: bytes(text) };
        // The 128 KiB body limit applies before routing, to every request.
        const allowed = onRoute ? documented(def) : r.body.length > MAX_BODY_BYTES ? new Set([...NO_ROUTE, 413]) : NO_ROUTE;
        await expectDocumented(r, await send(r), allowed);
      }),
      { seed: SEED, numRuns: RUNS.bodies },
    );
    expect(await fingerprint(svc.ctx.db.db)).toEqual(before);
  }, 180_000);

  /** Where the gate refused a forged payment, by its 402 error text. */
  const GATE_STAGES: Array<[string, RegExp]> = [
    ["no payment", /^Payment required/],
    ["not a payload", /^invalid_payment: the PAYMENT-SIGNATURE header is not/],
    ["wrong version", /^invalid_payment: x402Version/],
    ["requirement mismatch", /^invalid_payment: the payment does not match/],
    ["not an EIP-3009 authorization", /^invalid_payment: not a signed EIP-3009/],
  ];
  const stages = new Map<string, number>();

  it(`garbage PAYMENT-SIGNATURE, X-PAYMENT and X-Credit-Id on well-formed paid requests answer 402 (${RUNS.payments} runs)`, async () => {
    const request = fc.constantFrom(...paidRoutes).chain((def) =>
      fc.record({
        route: fc.constant(def.id),
        name: fc.constantFrom("payment-signature", "PAYMENT-SIGNATURE", "x-payment"),
        payment: fc.option(paymentSignature(requirementOf(def)), { freq: 8 }),
        credit: def.acceptsCredits ? fc.option(creditHeader, { freq: 2 }) : fc.constant(null),
        junk: junkHeaders,
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, name, payment, credit, junk }) => {
        const def = byId.get(route)!;
        const headers: Record<string, string> = { ...junk, "content-type": "application/json" };
        if (payment) headers[name] = payment;
        if (credit) headers["x-credit-id"] = credit;
        const r = { method: "POST", path: def.path, headers, body: bytes(JSON.stringify(wellFormed.get(def.id))) };
        const res = await send(r);
        const reason = (await res
          .clone()
          .json()
          .catch(() => ({}))) as { error?: string };
        const stage = GATE_STAGES.find(([, re]) => re.test(reason.error ?? ""))?.[0] ?? "refused by the facilitator";
        stages.set(stage, (stages.get(stage) ?? 0) + 1);
        await expectDocumented(r, res, new Set([402]));
      }),
      { seed: SEED + 1, numRuns: RUNS.payments },
    );
    expect(await fingerprint(svc.ctx.db.db)).toEqual(before);
    // Every stage of the gate was reached, the facilitator's verification included.
    for (const [stage] of GATE_STAGES) expect(stages.get(stage) ?? 0, stage).toBeGreaterThan(20);
    expect(stages.get("refused by the facilitator") ?? 0).toBeGreaterThan(20);
  }, 180_000);

  it(`ids: garbage, path traversal, oversized ids and wrong secrets on every id route (${RUNS.ids} runs)`, async () => {
    const secretHeaders = fc.record(
      {
        authorization: fc.oneof(
          headerValue,
          headerValue.map((s) => `Bearer ${s}`),
          fc.constant("Bearer "),
        ),
        "x-watch-secret": headerValue,
      },
      { requiredKeys: [] },
    );
    const request = fc.constantFrom(...idRoutes).chain((def) =>
      fc.record({
        route: fc.constant(def.id),
        id: fc.oneof({ weight: 8, arbitrary: idSegment }, { weight: 1, arbitrary: fc.constant(watchId) }),
        raw: fc.option(fc.constantFrom(...RAW_TRAVERSALS), { freq: 6 }),
        secrets: secretHeaders,
        junk: junkHeaders,
        variant: fc.constantFrom("route", "route", "route", "route", "wrong-method", "extra-segment"),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, id, raw, secrets, junk, variant }) => {
        const def = byId.get(route)!;
        const prefix = def.path.replace(/\/:\w+$/, "");
        const path = raw ? `${prefix}/${raw}` : variant === "extra-segment" ? `${prefix}/${id}/${id}` : `${prefix}/${id}`;
        const method = variant === "wrong-method" ? "PUT" : def.method.toUpperCase();
        const r = { method, path, headers: { ...junk, ...secrets } };
        await expectDocumented(r, await send(r), raw || variant !== "route" ? NO_ROUTE : documented(def));
      }),
      { seed: SEED + 2, numRuns: RUNS.ids },
    );
    expect(await fingerprint(svc.ctx.db.db)).toEqual(before);
  }, 180_000);

  it(`a valid X-Credit-Id with a malformed body spends nothing (${RUNS.credit} runs)`, async () => {
    const request = fc.record({
      text: fc.oneof({ weight: 10, arbitrary: bodyText(preflight) }, { weight: 1, arbitrary: oversizedBody }),
      type: contentType,
      pad: fc.constantFrom("", " ", "\t"),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ text, type, pad }) => {
        fc.pre(!(acceptedBy(preflight.body, text, false) && JSON_TYPE.test(type ?? "")));
        const r = { method: "POST", path: preflight.path, headers: withType(type, { "x-credit-id": `${pad}${creditId}${pad}` }), body: bytes(text) };
        await expectDocumented(r, await send(r), new Set(PLATFORM_BODY_STATUSES));
      }),
      { seed: SEED + 3, numRuns: RUNS.credit },
    );
    expect(await fingerprint(svc.ctx.db.db)).toEqual(before);
    expect((await svc.ctx.services.credits.get(creditId))?.balance).toBe(1000);
  }, 120_000);

  it(`over real HTTP: repeated header lines, chunked and declared-length bodies, oversized or not (${RUNS.wire} runs)`, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const wire = (r: { method: string; path: string; headers: Record<string, string | string[]>; body: Uint8Array; chunked: boolean }) =>
      new Promise<Response>((resolve, reject) => {
        sent++;
        const req = httpRequest(`${server.url}${r.path}`, { method: r.method, headers: r.headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: { "content-type": String(res.headers["content-type"] ?? "") } })),
          );
        });
        req.on("error", reject);
        if (r.chunked) for (let i = 0; i < r.body.length; i += 8192) req.write(r.body.subarray(i, i + 8192));
        else if (r.body.length > 0) req.write(r.body);
        req.end();
      });
    const twice = (v: fc.Arbitrary<string>) => fc.array(v, { minLength: 2, maxLength: 3 });
    const request = fc.constantFrom(...bodyRoutes).chain((def) =>
      fc.record({
        route: fc.constant(def.id),
        text: fc.oneof({ weight: 4, arbitrary: bodyText(def) }, { weight: 1, arbitrary: oversizedBody }),
        type: fc.oneof(contentType, twice(fc.constantFrom("application/json", "text/plain"))),
        payment: isPaid(def) ? fc.option(twice(paymentSignature(requirementOf(def))), { freq: 2 }) : fc.constant(null),
        credit: fc.option(twice(creditHeader), { freq: 3 }),
        requestIds: fc.option(twice(headerValue), { freq: 3 }),
        chunked: fc.boolean(),
      }),
    );
    try {
      await fc.assert(
        fc.asyncProperty(request, async ({ route, text, type, payment, credit, requestIds, chunked }) => {
          const def = byId.get(route)!;
          const one = typeof type === "string" || type === undefined;
          const wellFormed =
            acceptedBy(def.body, text, def.bodyOptional ?? false) &&
            (text.trim() === "" || (one ? JSON_TYPE.test(type ?? "") : type[0] === "application/json"));
          fc.pre(!(wellFormed && !isPaid(def)));
          const body = bytes(text);
          const headers: Record<string, string | string[]> = {};
          if (type !== undefined) headers["content-type"] = type;
          if (payment) headers["payment-signature"] = payment;
          if (credit) headers["x-credit-id"] = credit;
          if (requestIds) headers["x-request-id"] = requestIds;
          if (chunked) headers["transfer-encoding"] = "chunked";
          else headers["content-length"] = String(body.length);
          const r = { method: def.method.toUpperCase(), path: def.path, headers, body, chunked };
          // Node refuses a header block over 16 KiB before the app (431, same JSON body).
          await expectDocumented({ ...r, headers: {} }, await wire(r), new Set([...documented(def), 431]));
        }),
        { seed: SEED + 4, numRuns: RUNS.wire },
      );
    } finally {
      agent.destroy();
    }
    expect(await fingerprint(svc.ctx.db.db)).toEqual(before);
  }, 120_000);

  it("still answers after the fuzz, and sent at least 10,000 requests", async () => {
    expect((await app.request("/healthz")).status).toBe(200);
    const challenge = await send({
      method: "POST",
      path: preflight.path,
      headers: { "content-type": "application/json" },
      body: bytes('{"url":"https://a.example/x"}'),
    });
    expect(challenge.status).toBe(402);
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(await fingerprint(svc.ctx.db.db)).toEqual(before);
  });
});
