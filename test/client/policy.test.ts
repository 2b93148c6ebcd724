import { x402Client } from "@x402/core/client";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  createLookoutClient,
  guardFetch,
  LookoutNetworkError,
  LookoutTimeoutError,
  lookoutPolicy,
  PaymentError,
  PreflightBlockedError,
  PreflightUnavailableError,
  RateLimitedError,
  readPaymentRequired,
  requirementDigest,
  ServiceUnavailableError,
  UnexpectedStatusError,
  VerdictSignatureError,
  type FailMode,
  type GuardDecision,
  type LookoutClient,
  type LookoutPolicy,
  type PreflightReport,
  type UnknownMode,
} from "@x402-lookout/client";
import { PREFLIGHT_EXAMPLE } from "@x402-lookout/contracts/preflight/preflight";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

const LOOKOUT = "http://127.0.0.1:8402";
const ENDPOINT = "https://merchant.example/v1/forecast";
const SIGNATURE = "eyJhbGciOiJFZERTQSJ9.eyJvayI6dHJ1ZX0.c2ln";
const CHALLENGE: PaymentRequired = {
  x402Version: 2,
  resource: { url: `${ENDPOINT}?city=Lisbon` },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: "1000",
      payTo: "0x1111111111111111111111111111111111111111",
      maxTimeoutSeconds: 60,
      extra: { name: "USDC", version: "2" },
    },
  ],
};
const DIGEST = await requirementDigest(readPaymentRequired(CHALLENGE as unknown as Record<string, unknown>)!.accepts[0]!);

type Input = { url: string; method?: string; paymentRequired?: Record<string, unknown> };
type Lookout = Pick<LookoutClient, "baseUrl" | "preflight" | "alternatives">;
const init = (status: number | null, code: string) => ({ routeId: "preflight", code, status, paymentSent: false, paymentSettled: false });

/** A report as the typed client returns it: signed, its verified claims bound to the quote sent (or to `digest`). */
function verdict(over: Partial<PreflightReport>, digest?: string) {
  return (input: Input): PreflightReport => {
    const r = { ...PREFLIGHT_EXAMPLE, ok: true, warnings: [], recommended_action: "pay", signature: SIGNATURE, ...over } as PreflightReport;
    const bound = digest ?? (input.paymentRequired ? DIGEST : null);
    return Object.defineProperty(r, "verified", { value: { url: input.url, requirement_digest: bound }, enumerable: false });
  };
}
const failing = (error: Error) => (): PreflightReport => {
  throw error;
};

const MODES = (["open", "closed"] as const).flatMap((f) =>
  (["allow", "warn", "block"] as const).map((u) => ({ failMode: f as FailMode, unknown: u as UnknownMode })),
);
type Modes = (typeof MODES)[number];
type Expected = { pays: boolean; decision: Partial<GuardDecision>; guardError?: typeof PreflightBlockedError | typeof PreflightUnavailableError };

/** The table of docs/clients.md ("Payment policy"): each situation and what each mode makes of it. */
const TABLE: Array<{ situation: string; answer: (input: Input) => PreflightReport; expect: (m: Modes) => Expected; endpointAllows?: boolean }> = [
  { situation: "verdict pay", answer: verdict({}), expect: () => ({ pays: true, decision: { decision: "allow", reasons: [], signature: SIGNATURE } }) },
  {
    situation: "verdict blocks",
    answer: verdict({ ok: false, recommended_action: "skip", warnings: ["dead"] }),
    expect: () => ({ pays: false, decision: { decision: "block", reasons: ["not_ok", "action"], signature: SIGNATURE }, guardError: PreflightBlockedError }),
  },
  {
    situation: "unknown endpoint",
    answer: verdict({ recommended_action: "investigate", warnings: ["unknown_endpoint"] }),
    expect: ({ unknown }) =>
      unknown === "block"
        ? { pays: false, decision: { decision: "block", reasons: ["unknown_endpoint"], mode: "unknown_block" }, guardError: PreflightBlockedError }
        : { pays: true, decision: { decision: unknown, reasons: unknown === "warn" ? ["unknown_endpoint"] : [], mode: `unknown_${unknown}` } },
  },
  ...[
    new LookoutTimeoutError("slow", init(null, "timeout")),
    new LookoutNetworkError("refused", init(null, "network")),
    new ServiceUnavailableError("down", init(503, "service_unavailable"), 30),
    new UnexpectedStatusError("boom", init(500, "internal")),
    new RateLimitedError("later", init(429, "rate_limited"), 60),
  ].map((error) => ({
    situation: `outage: ${error.name} ${String(error.status)}`,
    answer: failing(error),
    expect: ({ failMode }: Modes): Expected =>
      failMode === "open"
        ? { pays: true, decision: { decision: "warn", reasons: ["service_unavailable"], mode: "failed_open", error } }
        : {
            pays: false,
            decision: { decision: "block", reasons: ["service_unavailable"], mode: "failed_closed", error },
            guardError: PreflightUnavailableError,
          },
  })),
  ...[
    new BadRequestError("bad", init(400, "invalid_request")),
    new PaymentError("cap", init(null, "spend_cap")),
    new VerdictSignatureError("forged", init(200, "bad_signature")),
  ].map((error) => ({
    situation: `no verdict: ${error.name}`,
    answer: failing(error),
    expect: (): Expected => ({ pays: false, decision: { decision: "block", reasons: ["check_failed"], error }, guardError: PreflightUnavailableError }),
  })),
  {
    situation: "requirement digest mismatch",
    answer: verdict({}, "another-requirement"),
    endpointAllows: true,
    expect: () => ({
      pays: false,
      decision: { decision: "block", reasons: ["requirement_mismatch"], signature: SIGNATURE, requirementDigest: DIGEST },
      guardError: PreflightBlockedError,
    }),
  },
];

function fakeLookout(answer: (input: Input) => PreflightReport) {
  const asked: Input[] = [];
  const preflight = async (input: Input) => (asked.push(input), answer(input));
  return { asked, lookout: { baseUrl: LOOKOUT, preflight, alternatives: async () => undefined } as unknown as Lookout };
}
const payer = () => x402Client.fromConfig({ schemes: [{ network: "eip155:84532", client: new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())) }] });

describe("lookoutPolicy and guardFetch: every cell of the table", () => {
  for (const row of TABLE) {
    it(`${row.situation}: the payment and the decision in each mode`, async () => {
      for (const modes of MODES) {
        const want = row.expect(modes);
        const cell = `${row.situation} / ${modes.failMode} / ${modes.unknown}`;

        // lookoutPolicy on a real x402Client: signing (createPaymentPayload) happens or is aborted.
        const decisions: GuardDecision[] = [];
        const policy = lookoutPolicy({ ...fakeLookout(row.answer), ...modes, onDecision: (d) => decisions.push(d) });
        const client = payer().onBeforePaymentCreation(policy);
        await requested(policy);
        const paid = await client.createPaymentPayload(structuredClone(CHALLENGE)).catch((e: unknown) => e as Error);
        if (want.pays) expect(paid, cell).toMatchObject({ accepted: CHALLENGE.accepts[0], payload: { signature: expect.any(String) } });
        else expect((paid as Error).message, cell).toMatch(/^Payment creation aborted: x402 Lookout: payment to https:\/\/merchant\.example\/v1\/forecast /);
        expect(decisions, cell).toHaveLength(1);
        expect(decisions[0], cell).toMatchObject({ url: ENDPOINT, stage: "quote", cached: false, ...want.decision });
        expect(decisions[0]!.mode, cell).toBe(want.decision.mode);
        expect(decisions[0]!.requirementDigest, cell).toBe(want.decision.error ? undefined : DIGEST);

        // guardFetch with the same x402Client hook: the endpoint stage before any request, then the quote.
        const g = await guarded(row.answer, modes);
        if (want.pays) expect(g.outcome, cell).toBe("paid");
        else expect(g.outcome, cell).toBeInstanceOf(want.guardError!);
        const stages = row.endpointAllows ? ["endpoint", "quote"] : want.pays ? ["endpoint", "quote"] : ["endpoint"];
        expect(
          g.decisions.map((d) => d.stage),
          cell,
        ).toEqual(stages);
        const { requirementDigest: _, ...same } = want.decision;
        expect(g.decisions.at(-1), cell).toMatchObject(row.endpointAllows ? want.decision : same);
        if (row.endpointAllows) expect(g.decisions[0], cell).toMatchObject({ decision: "allow" });
        expect(g.merchant, cell).toEqual(want.pays ? ["unpaid", "paid"] : row.endpointAllows ? ["unpaid"] : []);
      }
    });
  }
});

/** guardFetch over the real @x402/fetch and x402Client, in front of a merchant answering 402 then 200 once paid. */
async function guarded(answer: (input: Input) => PreflightReport, modes: Modes) {
  const merchant: string[] = [];
  const fetchMerchant = (async (input: Request) => {
    const paid = input.headers.has("payment-signature");
    merchant.push(paid ? "paid" : "unpaid");
    if (paid) return new Response("{}", { status: 200 });
    return new Response("{}", { status: 402, headers: { "payment-required": encodePaymentRequiredHeader(CHALLENGE) } });
  }) as typeof fetch;
  const decisions: GuardDecision[] = [];
  const client = payer();
  const fetchGuarded = guardFetch(wrapFetchWithPayment(fetchMerchant, client), {
    ...fakeLookout(answer),
    ...modes,
    x402Client: client,
    onDecision: (d) => decisions.push(d),
  });
  const res = await fetchGuarded(`${ENDPOINT}?city=Lisbon`).catch((e: unknown) => e);
  return { outcome: res instanceof Response && res.status === 200 ? "paid" : res, decisions, merchant };
}

/** The agent's request that drew `challenge`, sent through the policy's fetch tap as @x402/fetch sends it. */
async function requested(policy: LookoutPolicy, url = `${ENDPOINT}?city=Lisbon`, challenge: PaymentRequired = CHALLENGE, method = "GET") {
  const answer402 = async () => new Response("{}", { status: 402, headers: { "payment-required": encodePaymentRequiredHeader(challenge) } });
  await policy.fetch(answer402)(url, { method });
}

describe("lookoutPolicy: what it asks and when it asks", () => {
  it("sends the requested endpoint without query, its method and the 402 narrowed to the selected requirement; a verdict is reused", async () => {
    const fake = fakeLookout(verdict({}));
    const decisions: GuardDecision[] = [];
    const policy = lookoutPolicy({ ...fake, onDecision: (d) => decisions.push(d) });
    const client = payer().onBeforePaymentCreation(policy);
    const offer = { ...structuredClone(CHALLENGE), accepts: [CHALLENGE.accepts[0]!, { ...CHALLENGE.accepts[0]!, network: "eip155:1" as const }] };
    await requested(policy, `${ENDPOINT}?city=Lisbon`, offer, "POST");
    await client.createPaymentPayload(structuredClone(offer));
    await client.createPaymentPayload(structuredClone(offer));
    expect(fake.asked).toEqual([{ url: ENDPOINT, method: "POST", paymentRequired: { ...offer, accepts: [CHALLENGE.accepts[0]] } }]);
    expect(decisions.map((d) => d.cached)).toEqual([false, true]);
  });

  it("judges the request, not the 402's claim: an unseen request, another resource or a Lookout route at another price is refused", async () => {
    const claiming = (url: string, amount = "1000"): PaymentRequired => ({
      ...structuredClone(CHALLENGE),
      resource: { url },
      accepts: [{ ...CHALLENGE.accepts[0]!, amount }],
    });
    const namelessDigest = await requirementDigest(readPaymentRequired(claiming("") as unknown as Record<string, unknown>)!.accepts[0]!);
    const fake = fakeLookout(verdict({}, namelessDigest));
    const decisions: GuardDecision[] = [];
    const policy = lookoutPolicy({ ...fake, failMode: "open", onDecision: (d) => decisions.push(d) });
    const client = payer().onBeforePaymentCreation(policy);
    // Nobody sent a request this 402 answered: nothing to judge, refused.
    await expect(client.createPaymentPayload(claiming(`${ENDPOINT}?unseen=1`))).rejects.toThrow(/request this 402 answered is unknown/);
    // A merchant's 402 naming a Lookout route (self-referential) or another endpoint: refused, nothing asked.
    for (const claim of [`${LOOKOUT}/api/v1/preflight`, "https://healthy.example/v1/forecast"]) {
      await requested(policy, `${ENDPOINT}?city=Porto`, claiming(claim));
      await expect(client.createPaymentPayload(claiming(claim))).rejects.toThrow(/names another resource/);
    }
    expect(fake.asked).toEqual([]);
    // A 402 that names no resource is judged by the request alone.
    const nameless = claiming("");
    await requested(policy, `${ENDPOINT}?city=Faro`, nameless);
    expect(await client.createPaymentPayload(structuredClone(nameless))).toMatchObject({ accepted: CHALLENGE.accepts[0] });
    expect(fake.asked).toHaveLength(1);
    // The same challenge drawn by two different requests (the merchant's above, Lookout's here) cannot say whose it is.
    const own = claiming(`${LOOKOUT}/api/v1/preflight`);
    await requested(policy, `${LOOKOUT}/api/v1/preflight`, own, "POST");
    await expect(client.createPaymentPayload(structuredClone(own))).rejects.toThrow(/request this 402 answered is unknown/);
    // The Lookout service's own route goes unchecked only at its listed price (preflight: 0.001 USDC).
    const ownAlone = { ...own, accepts: [{ ...own.accepts[0]!, maxTimeoutSeconds: 30 }] };
    await requested(policy, `${LOOKOUT}/api/v1/preflight`, ownAlone, "POST");
    expect(await client.createPaymentPayload(structuredClone(ownAlone))).toMatchObject({ accepted: ownAlone.accepts[0] });
    const dear = claiming(`${LOOKOUT}/api/v1/preflight`, "999999");
    await requested(policy, `${LOOKOUT}/api/v1/preflight`, dear, "POST");
    await expect(client.createPaymentPayload(structuredClone(dear))).rejects.toThrow(/listed price is 1000/);
    expect(fake.asked).toHaveLength(1);
    expect(decisions.map((d) => d.reasons)).toEqual([
      ["request_unknown"],
      ["resource_mismatch"],
      ["resource_mismatch"],
      [],
      ["request_unknown"],
      ["lookout_price_mismatch"],
    ]);
  });
});

describe("lookoutPolicy on an agent's own x402Client, paying the demo fleet on the devnet", () => {
  let svc: PaidService;
  let fleet: DemoFleet;
  let lookout: LookoutClient;
  const AGENT = 4;
  const LOOKOUT_PAYER = 5;
  /** Every request the Lookout client sent to the service: its path and header names. */
  const sent: Array<{ path: string; headers: string[] }> = [];
  const recording: typeof fetch = (input, init) => {
    const req = new Request(input, init);
    sent.push({ path: new URL(req.url).pathname, headers: [...req.headers.keys()].sort() });
    return fetch(req);
  };
  const demo = (kind: DemoEndpoint["kind"], path: string) => fleet.endpoints.find((e) => e.kind === kind && e.url.endsWith(path))!;

  beforeAll(async () => {
    svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
    fleet = await startProbedDemoFleet(svc.ctx, svc.devnet);
    const signer = privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey);
    lookout = createLookoutClient({ baseUrl: svc.url, signer, fetch: recording, now: () => svc.ctx.clock.now().getTime() });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
    await svc?.close();
  });

  /** The agent as @x402/fetch users write it, plus the one line. */
  function agent() {
    const decisions: GuardDecision[] = [];
    const client = x402Client.fromConfig({
      schemes: [{ network: svc.devnet.network, client: new ExactEvmScheme(privateKeyToAccount(svc.devnet.demoAccounts[AGENT]!.privateKey)) }],
    });
    const policy = lookoutPolicy({ lookout, onDecision: (d) => decisions.push(d) });
    client.onBeforePaymentCreation(policy);
    return { pay: wrapFetchWithPayment(policy.fetch(fetch), client), decisions };
  }

  it("aborts the payment to a payTo switched after listing (balance unchanged) and pays a healthy endpoint", async () => {
    const switched = demo("pay_to_switch", "/stocks/quote");
    const before = await svc.balanceOf(svc.payer(AGENT));
    const blocked = agent();
    const err = (await blocked.pay(switched.url).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^Failed to create payment payload: Payment creation aborted: x402 Lookout: payment to .* blocked by preflight: /);
    expect(blocked.decisions).toMatchObject([{ url: switched.url, stage: "quote", decision: "block", cached: false }]);
    expect(blocked.decisions[0]!.report!.reason_codes).toContain("pay_to_mismatch");
    expect(blocked.decisions[0]!.signature).toBe(blocked.decisions[0]!.report!.signature);
    expect(await svc.balanceOf(svc.payer(AGENT))).toBe(before);

    const healthy = demo("healthy", "/weather/current");
    const res = await fetch(healthy.url);
    const digest = await requirementDigest(readPaymentRequired(res.headers.get("payment-required")!)!.accepts[0]!);
    const good = agent();
    const paid = await good.pay(`${healthy.url}?city=Lisbon`);
    expect(paid.status).toBe(200);
    expect(good.decisions).toMatchObject([{ url: healthy.url, stage: "quote", decision: "allow", reasons: [], requirementDigest: digest }]);
    expect(good.decisions[0]!.report!.verified).toMatchObject({ url: healthy.url, requirement_digest: digest });
    expect(before - (await svc.balanceOf(svc.payer(AGENT)))).toBe(BigInt(healthy.amount));
  });

  it("sends the service no header beyond what the call and its payment need", async () => {
    const signer = privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey);
    const fresh = createLookoutClient({ baseUrl: svc.url, signer, fetch: recording, now: () => svc.ctx.clock.now().getTime() });
    sent.length = 0;
    await fresh.preflight({ url: demo("healthy", "/weather/forecast").url });
    const { creditId } = await fresh.credits();
    fresh.useCredit(creditId);
    await fresh.preflight({ url: demo("healthy", "/weather/forecast").url });
    const json = ["accept", "content-type"];
    expect(sent).toEqual([
      { path: "/api/v1/preflight", headers: json },
      { path: "/api/v1/preflight", headers: [...json, "payment-signature"] },
      // jose's own User-Agent (its name and version) is dropped: the JWKS request carries accept only.
      { path: "/.well-known/jwks.json", headers: ["accept"] },
      { path: "/api/v1/credits", headers: json },
      { path: "/api/v1/credits", headers: [...json, "payment-signature"] },
      { path: "/api/v1/preflight", headers: [...json, "x-credit-id"] },
    ]);
  });
});
