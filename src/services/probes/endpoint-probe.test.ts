import { describe, expect, it } from "vitest";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import { classifyResponse, probeRequest, type EndpointJob } from "./endpoint-probe.js";
import type { HttpResponse } from "./http-client.js";

// The request builder and the outcome classes (decisions 0020, 0037, 0046).
const job = (over: Partial<EndpointJob> = {}): EndpointJob => ({
  listingId: 1,
  url: "https://api.example.com/q",
  method: "POST",
  host: "api.example.com",
  network: null,
  asset: null,
  ...over,
});
const answer = (status: number, headers: Record<string, string> = {}): HttpResponse => ({
  ok: true,
  status,
  headers,
  body: Buffer.from("{}"),
  truncated: false,
  latencyMs: 20,
});
const PRICE = { network: null, asset: null };
const header = encodePaymentRequiredHeader({
  x402Version: 2,
  resource: { url: "x" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: "10000",
      payTo: "0x" + "1".repeat(40),
      maxTimeoutSeconds: 60,
      extra: {},
    },
  ],
} as never);

describe("probeRequest", () => {
  it("puts the declared query on the URL for every profile", () => {
    for (const profile of ["fetch", "axios", "httpx", "browser"] as const) {
      expect(probeRequest(job({ method: "GET", inputQuery: "city=Kiel" }), profile)).toMatchObject({
        url: "https://api.example.com/q?city=Kiel",
        method: "GET",
      });
      expect(probeRequest(job({ inputQuery: "city=Kiel" }), profile).url).toBe("https://api.example.com/q?city=Kiel");
    }
    expect(probeRequest(job({ method: "GET" }), "fetch").url).toBe("https://api.example.com/q");
  });

  it("sends the declared body with the default profile, {} with httpx and none with axios and the browser", () => {
    const j = job({ inputExample: '{"text":"hello"}' });
    expect(probeRequest(j, "fetch").body).toBe('{"text":"hello"}');
    expect(probeRequest(j, "httpx").body).toBe("{}");
    expect(probeRequest(j, "axios").body).toBeUndefined();
    expect(probeRequest(j, "browser").body).toBeUndefined();
    expect(probeRequest({ ...j, method: "GET" }, "fetch").body).toBeUndefined();
  });
});

describe("classifyResponse", () => {
  it("reads a 400 or 422 without a challenge as needs_input, its status and latency kept", () => {
    expect(classifyResponse(answer(400), PRICE)).toMatchObject({ outcome: "needs_input", statusCode: 400, errorKind: null, latencyMs: 20 });
    expect(classifyResponse(answer(422), { ...PRICE, paid: true })).toMatchObject({ outcome: "needs_input", statusCode: 422 });
  });

  it("keeps every other answer's class", () => {
    expect(classifyResponse(answer(422, { "payment-required": header }), PRICE)).toMatchObject({ outcome: "error", statusCode: 422 });
    expect(classifyResponse(answer(402, { "payment-required": header }), PRICE)).toMatchObject({ outcome: "healthy", priceUsdc: "0.01" });
    for (const status of [401, 403, 404, 405, 429, 500, 503]) expect(classifyResponse(answer(status), PRICE).outcome).toBe("error");
  });
});
