import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  createLookoutClient,
  CreditAlreadyMintedError,
  LookoutNetworkError,
  LookoutTimeoutError,
  NotFoundError,
  NotVerifiedError,
  PayloadTooLargeError,
  PaymentError,
  PaymentRequiredError,
  RateLimitedError,
  ServiceUnavailableError,
  UnexpectedStatusError,
  UnsupportedMediaTypeError,
  type LookoutError,
} from "@x402-lookout/client";
import { checkedBaseUrl } from "@x402-lookout/client/internal/base-url";

// Requests in flight stay reachable, as a real connection keeps them: without this, a promise
// that only an abort can settle is garbage, and AbortSignal.timeout's timer can go with it.
const inFlight = new Set<Request>();

/** A server that never answers, as fetch sees it: rejects when the call's signal aborts, at once if it already has. */
const hangUntilAborted = (req: Request) =>
  new Promise<Response>((_, reject) => {
    if (req.signal.aborted) return reject(req.signal.reason);
    inFlight.add(req);
    req.signal.addEventListener("abort", () => {
      inFlight.delete(req);
      reject(req.signal.reason);
    });
  });

const BASE = "http://127.0.0.1:8402";
const CREDIT = "6f1c1f8e-2f7a-4d55-9a51-3f1f0b7f6a10";

/** A client over a fake transport: `answer` makes each response; every request is kept. */
function fake(answer: (req: Request) => Response | Promise<Response>, options: Partial<Parameters<typeof createLookoutClient>[0]> = {}) {
  const requests: Request[] = [];
  const client = createLookoutClient({
    baseUrl: BASE,
    fetch: (async (input: Request | string | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      requests.push(req);
      return answer(req);
    }) as typeof fetch,
    // The fake answers carry no signed verdict; test/client/guard-quote.test.ts checks verification against the real service.
    verifyVerdicts: false,
    ...options,
  });
  return { client, requests };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("base URL", () => {
  it("takes https anywhere and http on loopback only", () => {
    expect(checkedBaseUrl("https://lookout.example/")).toBe("https://lookout.example");
    expect(checkedBaseUrl("https://lookout.example/v/")).toBe("https://lookout.example/v");
    for (const ok of ["http://127.0.0.1:8402", "http://localhost:8402", "http://[::1]:8402", "http://127.8.9.10"]) expect(checkedBaseUrl(ok)).toBe(ok);
    for (const bad of [
      "http://lookout.example",
      "http://10.0.0.1:8402",
      "http://localhost.evil.example",
      "https://u:p@lookout.example",
      "https://lookout.example/?x=1",
      "https://lookout.example/#a",
      "ftp://lookout.example",
      "lookout.example",
    ]) {
      expect(() => checkedBaseUrl(bad), bad).toThrow(TypeError);
    }
    expect(() => createLookoutClient({ baseUrl: "http://lookout.example" })).toThrow(/https, or http on a loopback address/);
  });
});

describe("requests", () => {
  it("sends path parameters in the path, the secret as a bearer header, the rest as JSON; no redirects", async () => {
    const { client, requests } = fake(() => json(200, {}));
    await client.watchStatus({ id: "a b/c", secret: "s3cret" });
    await client.watchUnsubscribe({ id: "w1", secret: "s3cret" });
    await client.preflightTrial({ url: "https://merchant.example/x" });
    await client.catalogDecoys();
    const [status, unsubscribe, trial, decoys] = requests;
    expect([status!.method, status!.url, status!.headers.get("authorization")]).toEqual(["GET", `${BASE}/api/v1/watch/a%20b%2Fc`, "Bearer s3cret"]);
    expect(await status!.text()).toBe("");
    expect([unsubscribe!.method, unsubscribe!.url]).toEqual(["DELETE", `${BASE}/api/v1/watch/w1`]);
    expect([trial!.method, trial!.url, trial!.headers.get("content-type"), await trial!.text()]).toEqual([
      "POST",
      `${BASE}/api/v1/preflight-trial`,
      "application/json",
      '{"url":"https://merchant.example/x"}',
    ]);
    expect(await decoys!.text()).toBe("{}");
    expect(requests.every((r) => r.redirect === "error")).toBe(true);
  });
});

describe("errors", () => {
  const cases: Array<[number, new (...a: never[]) => LookoutError, Record<string, unknown>, Record<string, string>?]> = [
    [400, BadRequestError, { error: "bad_request", message: "url: must be an absolute http or https URL", request_id: "r1" }],
    [402, PaymentRequiredError, { x402Version: 2, error: "Payment required: 0.001 USDC.", resource: {}, accepts: [] }],
    [404, NotFoundError, { error: "credit_not_found", message: "no credit bundle with this id", request_id: "r1" }],
    [409, CreditAlreadyMintedError, { error: "credit_already_minted", message: "already", request_id: "r1", credit: { creditId: CREDIT } }],
    [413, PayloadTooLargeError, { error: "payload_too_large", message: "at most 50 URLs per batch, got 51", request_id: "r1" }],
    [415, UnsupportedMediaTypeError, { error: "unsupported_media_type", message: "Content-Type must be application/json", request_id: "r1" }],
    [422, NotVerifiedError, { error: "not_verified", message: "criteria", request_id: "r1", payment_settled: false, failed_criteria: [{ id: "uptime_7d" }] }],
    [429, RateLimitedError, { error: "rate_limited", message: "trial limit", request_id: "r1" }, { "retry-after": "3600" }],
    [
      503,
      ServiceUnavailableError,
      { error: "service_unavailable", message: "timed out", request_id: "r1", payment_settled: false, settlement_skipped: true, retry_after_seconds: 30 },
    ],
    [500, UnexpectedStatusError, { error: "internal_error", message: "boom", request_id: "r1" }],
  ];

  it("answers every documented status with its own error class, status, code and body", async () => {
    for (const [status, ErrorClass, body, headers] of cases) {
      const { client } = fake(() => json(status, body, headers));
      const err = (await client.preflightTrial({ url: "https://merchant.example/x" }).catch((e: unknown) => e)) as LookoutError;
      expect(err, String(status)).toBeInstanceOf(ErrorClass);
      expect([err.status, err.routeId, err.body]).toEqual([status, "preflight-trial", body]);
      expect(err.code).toBe(status === 402 ? "payment_required" : body.error);
      expect(err.paymentSent).toBe(false);
      expect(err.paymentSettled).toBe(false);
      expect(err.retryable, String(status)).toBe(status === 429 || status === 503);
    }
  });

  it("carries what each status needs: retry-after, the minted credit, the failed criteria, the request id", async () => {
    const get = async (i: number) =>
      (await fake(() => json(cases[i]![0], cases[i]![2], cases[i]![3]))
        .client.preflightTrial({ url: "https://m.example/" })
        .catch((e: unknown) => e)) as any;
    expect((await get(7)).retryAfterSeconds).toBe(3600);
    expect((await get(8)).retryAfterSeconds).toBe(30);
    expect((await get(3)).credit).toEqual({ creditId: CREDIT });
    expect((await get(6)).failedCriteria).toEqual([{ id: "uptime_7d" }]);
    expect((await get(0)).requestId).toBe("r1");
  });

  it("reads a non-JSON error page without losing the status", async () => {
    const { client } = fake(() => new Response("<html>502 Bad Gateway</html>", { status: 502 }));
    const err = (await client.preflightTrial({ url: "https://m.example/" }).catch((e: unknown) => e)) as LookoutError;
    expect(err).toBeInstanceOf(UnexpectedStatusError);
    expect(err.body).toEqual({ error: "http_502", message: "<html>502 Bad Gateway</html>" });
  });

  it("times out, and says nothing was paid", async () => {
    const { client } = fake(hangUntilAborted, { timeoutMs: 50 });
    const err = (await client.preflightTrial({ url: "https://m.example/" }).catch((e: unknown) => e)) as LookoutError;
    expect(err).toBeInstanceOf(LookoutTimeoutError);
    expect([err.paymentSent, err.paymentSettled, err.retryable]).toEqual([false, false, true]);
    const perCall = await client.creditsStatus({ id: CREDIT }, { timeoutMs: 10 }).catch((e: unknown) => e);
    expect(perCall).toBeInstanceOf(LookoutTimeoutError);
  });

  it("gives a caller's abort back as it was", async () => {
    const { client } = fake(hangUntilAborted);
    const controller = new AbortController();
    const call = client.creditsStatus({ id: CREDIT }, { signal: controller.signal });
    controller.abort(new Error("agent cancelled"));
    await expect(call).rejects.toThrow("agent cancelled");
  });

  it("reports an unreachable service as a network error", async () => {
    const client = createLookoutClient({ baseUrl: "http://127.0.0.1:1" });
    const err = (await client.creditsStatus({ id: CREDIT }).catch((e: unknown) => e)) as LookoutError;
    expect(err).toBeInstanceOf(LookoutNetworkError);
    expect(err.retryable).toBe(true);
  });

  it("refuses, unsent, a route priced above the spend cap", async () => {
    const { client, requests } = fake(() => json(402, {}), { maxPaymentUsdc: "1" });
    const err = (await client.delistFeed().catch((e: unknown) => e)) as LookoutError;
    expect(err).toBeInstanceOf(PaymentError);
    expect([err.code, err.paymentSent]).toEqual(["spend_cap", false]);
    expect(requests).toHaveLength(0);
    await client.verified({ url: "https://m.example/*", name: "M" }).catch(() => undefined);
    expect(requests).toHaveLength(1);
    expect(() => createLookoutClient({ baseUrl: BASE, maxPaymentUsdc: "0.0000001" })).toThrow(/at most 6 decimals/);
  });

  it("without a signer, a paid route's 402 says so", async () => {
    const { client } = fake(() => json(402, { x402Version: 2, error: "Payment required" }));
    await expect(client.forensics({ url: "https://m.example/" })).rejects.toThrow(/no signer is configured/);
  });
});

describe("credit bundle", () => {
  it("presents X-Credit-Id on preflight only, and stops once the answers say it is spent", async () => {
    let balance = 2;
    const { client, requests } = fake(() => json(200, {}, { "x-credit-balance": String(--balance), "x-credit-expires-at": "2999-01-01T00:00:00.000Z" }), {
      creditId: CREDIT,
    });
    await client.forensics({ url: "https://m.example/" });
    await client.preflight({ url: "https://m.example/" });
    expect(client.credit).toEqual({ creditId: CREDIT, balance: 0, expiresAt: new Date("2999-01-01T00:00:00.000Z"), usable: false });
    await client.preflight({ url: "https://m.example/" });
    expect(requests.map((r) => r.headers.get("x-credit-id"))).toEqual([null, CREDIT, null]);
  });

  it("stops presenting a bundle the service answered 402 to, and says why the call was not paid", async () => {
    const { client, requests } = fake(() => json(402, { x402Version: 2, error: "Payment required" }), { creditId: CREDIT });
    await expect(client.preflight({ url: "https://m.example/" })).rejects.toThrow(/the credit bundle is exhausted or expired and no signer is configured/);
    expect(client.credit?.usable).toBe(false);
    await client.preflight({ url: "https://m.example/" }).catch(() => undefined);
    expect(requests.map((r) => r.headers.get("x-credit-id"))).toEqual([CREDIT, null]);
  });

  it("stops presenting an expired bundle, and takes a new one with useCredit", async () => {
    const { client, requests } = fake(() => json(200, {}, { "x-credit-balance": "900", "x-credit-expires-at": "2000-01-01T00:00:00.000Z" }), {
      creditId: CREDIT,
    });
    await client.preflight({ url: "https://m.example/" });
    expect(client.credit?.usable).toBe(false);
    await client.preflight({ url: "https://m.example/" });
    client.useCredit("11111111-2222-4333-8444-555555555555");
    await client.preflight({ url: "https://m.example/" });
    client.useCredit(null);
    await client.preflight({ url: "https://m.example/" });
    expect(requests.map((r) => r.headers.get("x-credit-id"))).toEqual([CREDIT, null, "11111111-2222-4333-8444-555555555555", null]);
    expect(client.credit).toBeNull();
  });
});
