import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { extractDiscoveryInfo, validateDiscoveryExtension, validateDiscoveryExtensionSpec, type DiscoveryExtension } from "@x402/extensions/bazaar";
import { isPaymentIdentifierExtension, isPaymentIdentifierRequired, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { attribution } from "../../src/http/attribution.js";
import { routeJsonSchemas } from "../../src/http/discovery/route-schemas.js";
import { paymentRequiredExtensions } from "../../src/http/payment/discovery.js";
import type { PaidRoute } from "../../src/http/payment/types.js";
import { isPaid } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

/**
 * Issue 21 item 3: every paid route's 402 declares the Bazaar discovery extension, and a
 * facilitator extracts it, with the SDK's own code, from the payment a real client makes.
 */
let svc: PaidService;
beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes });
});
afterAll(() => svc?.close());

const paid = productRoutes.filter(isPaid) as PaidRoute[];

/** The gate's challenge plus the extensions, as it crosses the wire (payment-required header). */
function challenge(route: PaidRoute): PaymentRequired {
  const base = svc.ctx.config.publicBaseUrl;
  const built = { ...svc.gate.paymentRequired(route), extensions: paymentRequiredExtensions(route, base) };
  return decodePaymentRequiredHeader(encodePaymentRequiredHeader(built as PaymentRequired));
}

describe("Bazaar discovery extension", () => {
  // The SDK's ajv notes each format it does not check ("date-time") on console.warn.
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => void (warn = vi.spyOn(console, "warn").mockImplementation(() => {})));
  afterEach(() => warn.mockRestore());

  it.each(paid.map((r) => [r.id, r] as const))("%s: a facilitator extracts method, input and output from a client's payment", async (_id, route) => {
    const base = svc.ctx.config.publicBaseUrl;
    const required = challenge(route);
    const client = x402Client.fromConfig({
      schemes: [{ network: svc.devnet.network, client: new ExactEvmScheme(privateKeyToAccount(svc.devnet.demoAccounts[0]!.privateKey)) }],
      spendControls: { maxAmountPerPayment: "$10" },
    });
    const payload = await client.createPaymentPayload(required);
    expect(payload.extensions?.bazaar).toEqual(required.extensions?.bazaar);

    const found = extractDiscoveryInfo(payload, payload.accepted);
    expect(warn.mock.calls.flat().join(" ")).not.toMatch(/validation failed|extraction failed/);
    expect(found).toMatchObject({
      resourceUrl: `${base}${route.path}`,
      method: route.method.toUpperCase(),
      description: route.summary,
      mimeType: "application/json",
    });
    const input = found!.discoveryInfo.input as { type: string; bodyType: string; body: unknown };
    expect(input).toMatchObject({ type: "http", method: "POST", bodyType: "json", body: route.examples.request ?? {} });
    const example = route.product ? { ...route.examples.response, attribution: attribution(base, route.product) } : route.examples.response;
    expect(found!.discoveryInfo.output).toEqual({ type: "json", example: JSON.parse(JSON.stringify(example)) });

    const bazaar = required.extensions!.bazaar as DiscoveryExtension;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(bazaar as never)).toEqual({ valid: true });
    expect((bazaar.schema.properties.input.properties as Record<string, unknown>).body).toEqual(routeJsonSchemas(route).input);
  });

  // Clients echo the extensions in PAYMENT-SIGNATURE; Node refuses request headers over 16 KB.
  it("keeps every challenge header under 8 KB", () => {
    for (const route of paid) expect(encodePaymentRequiredHeader(challenge(route)).length, route.id).toBeLessThan(8192);
  });

  it("declares payment-identifier as optional on every paid route", () => {
    for (const route of paid) {
      const declared = challenge(route).extensions?.[PAYMENT_IDENTIFIER];
      expect(isPaymentIdentifierExtension(declared)).toBe(true);
      expect(isPaymentIdentifierRequired(declared)).toBe(false);
    }
  });

  it("rides the gate's own 402, and a client pays with it echoed", async () => {
    const credits = paid.find((r) => r.id === "credits")!;
    const json = { "content-type": "application/json" };
    const unpaid = await fetch(`${svc.url}${credits.path}`, { method: "POST", headers: json, body: "{}" });
    expect(unpaid.status).toBe(402);
    expect(decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!).extensions).toEqual(challenge(credits).extensions);
    const res = await svc.payingFetch(0)(`${svc.url}${credits.path}`, { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(200);
  });

  it("builds the extensions once per route", () => {
    const base = svc.ctx.config.publicBaseUrl;
    for (const route of paid) expect(paymentRequiredExtensions(route, base)).toBe(paymentRequiredExtensions(route, base));
  });
});
