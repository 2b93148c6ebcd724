import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookoutClient,
  guardFetch,
  PreflightBlockedError,
  readPaymentRequired,
  requirementDigest,
  VerdictExpiredError,
  VerdictSignatureError,
  type GuardDecision,
  type LookoutClient,
} from "@x402-lookout/client";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { body, refusedInput } from "../helpers/http.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

let svc: PaidService;
let fleet: DemoFleet;
let lookout: LookoutClient;
const AGENT = 6;
const LOOKOUT_PAYER = 7;
const events: string[] = [];

const spy: typeof fetch = (input, init) => {
  const req = new Request(input, init);
  events.push(req.headers.has("payment-signature") ? "merchant paid" : "merchant");
  return fetch(req);
};
const healthy = (path: string) => fleet.endpoints.find((e: DemoEndpoint) => e.kind === "healthy" && e.url.endsWith(path))!;

/** The agent: the real x402 client on the devnet behind @x402/fetch, and the guard given that client. */
function agent(opts: { lookout?: Pick<LookoutClient, "baseUrl" | "preflight" | "alternatives"> } = {}) {
  const client = x402Client.fromConfig({
    schemes: [{ network: svc.devnet.network, client: new ExactEvmScheme(privateKeyToAccount(svc.devnet.demoAccounts[AGENT]!.privateKey)) }],
  });
  const decisions: GuardDecision[] = [];
  const fetchGuarded = guardFetch(wrapFetchWithPayment(spy, client), {
    lookout: opts.lookout ?? lookout,
    x402Client: client,
    onDecision: (d) => decisions.push(d),
  });
  return { fetchGuarded, decisions };
}

/** The digest of the requirement the endpoint's own 402 offers, computed apart from the guard. */
async function offeredDigest(url: string): Promise<string> {
  const res = await fetch(url);
  const challenge = readPaymentRequired(res.headers.get("payment-required") ?? (await res.json()));
  return requirementDigest(challenge!.accepts[0]!);
}

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  fleet = await startProbedDemoFleet(svc.ctx, svc.devnet);
  lookout = createLookoutClient({
    baseUrl: svc.url,
    signer: privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey),
    onCall: (info) => events.push(info.routeId),
    now: () => svc.ctx.clock.now().getTime(),
  });
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await svc?.close();
});

describe("guardFetch given the agent's x402 client: the payment is checked as it is about to be signed", () => {
  it("lets a payment go whose selected requirement is the one the signed verdict is bound to", async () => {
    const endpoint = healthy("/weather/current");
    const digest = await offeredDigest(endpoint.url);
    const before = await svc.balanceOf(svc.payer(AGENT));
    const { fetchGuarded, decisions } = agent();
    events.length = 0;
    const res = await fetchGuarded(`${endpoint.url}?city=Lisbon`);
    expect(res.status).toBe(200);
    expect(events).toEqual(["preflight", "merchant", "preflight", "merchant paid"]);
    expect(decisions.map((d) => [d.stage, d.decision])).toEqual([
      ["endpoint", "allow"],
      ["quote", "allow"],
    ]);
    const quoted = decisions[1]!;
    expect(quoted.requirementDigest).toBe(digest);
    expect(quoted.signature).toBe(quoted.report!.signature);
    expect(quoted.signature).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(quoted.report!.verified).toMatchObject({ url: endpoint.url, method: "GET", requirement_digest: digest, ok: true });
    expect(quoted.report!.quote).toMatchObject({ requirement_index: 0, requirement_digest: digest });
    expect(before - (await svc.balanceOf(svc.payer(AGENT)))).toBe(BigInt(endpoint.amount));
  });

  it("refuses to sign when the signed verdict is bound to another requirement: nothing is paid", async () => {
    const endpoint = healthy("/weather/forecast");
    // A Lookout asked about another requirement than the one being signed (here: another time-out),
    // as an agent reusing a verdict on an earlier 402 would be: the real service answers and signs it.
    const stale: Pick<LookoutClient, "baseUrl" | "preflight" | "alternatives"> = {
      baseUrl: lookout.baseUrl,
      alternatives: lookout.alternatives,
      preflight: (input) => {
        const pr = input.paymentRequired as { accepts: Array<Record<string, unknown>> } | undefined;
        if (!pr) return lookout.preflight(input);
        return lookout.preflight({ ...input, paymentRequired: { ...pr, accepts: pr.accepts.map((a) => ({ ...a, maxTimeoutSeconds: 7 })) } });
      },
    };
    const before = await svc.balanceOf(svc.payer(AGENT));
    const { fetchGuarded, decisions } = agent({ lookout: stale });
    events.length = 0;
    const err = await fetchGuarded(endpoint.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreflightBlockedError);
    expect((err as PreflightBlockedError).reasons).toEqual(["requirement_mismatch"]);
    expect((err as PreflightBlockedError).report).toMatchObject({ ok: true, recommended_action: "pay" });
    expect(decisions.map((d) => [d.stage, d.decision])).toEqual([
      ["endpoint", "allow"],
      ["quote", "block"],
    ]);
    expect(decisions[1]!.requirementDigest).toBe(await offeredDigest(endpoint.url));
    expect(decisions[1]!.report!.verified.requirement_digest).not.toBe(decisions[1]!.requirementDigest);
    expect(events).toEqual(["preflight", "merchant", "preflight"]);
    expect(await svc.balanceOf(svc.payer(AGENT))).toBe(before);
  });
});

describe("the typed client verifies every signed verdict", () => {
  const url = () => healthy("/weather/current").url;

  it("exposes the verified claims, takes method and paymentRequired, and refuses a changed answer", async () => {
    const report = await lookout.preflightTrial({ url: url(), method: "get" });
    expect(report.verified).toMatchObject({ url: url(), method: "GET", ok: report.ok, observed_at: report.observed_at, requirement_digest: null });
    expect(JSON.parse(JSON.stringify(report)).verified).toBeUndefined();
    const batch = await lookout.preflightBatch({ urls: [url(), { url: healthy("/weather/forecast").url, method: "POST" }] });
    expect(batch.results.map((r) => r.verified.method)).toEqual(["GET", "POST"]);

    const tampering =
      (change: (b: Record<string, unknown>) => void): typeof fetch =>
      async (input, init) => {
        const req = new Request(input, init);
        const res = await fetch(req);
        if (!req.url.endsWith("/api/v1/preflight-trial")) return res;
        const b = (await res.json()) as Record<string, unknown>;
        change(b);
        return new Response(JSON.stringify(b), { status: res.status, headers: { "content-type": "application/json" } });
      };
    const changes = [
      (b: Record<string, unknown>) => (b.risk_score = 0.77),
      (b: Record<string, unknown>) => (b.ok = !b.ok),
      (b: Record<string, unknown>) => delete b.signature,
    ];
    for (const change of changes) {
      const client = createLookoutClient({ baseUrl: svc.url, fetch: tampering(change) });
      const err = await client.preflightTrial({ url: url() }).catch((e: unknown) => e);
      expect(err, String(err)).toBeInstanceOf(VerdictSignatureError);
      expect(err).toMatchObject({ code: "bad_signature", paymentSent: false });
    }
    // Judged at the client's clock: past exp beyond the 30 s skew tolerance, the verdict is stale (a miss, never a pass).
    const at = (ms: number) => createLookoutClient({ baseUrl: svc.url, now: () => svc.ctx.clock.now().getTime() + ms });
    const stale = await at(331_000)
      .preflightTrial({ url: url() })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(VerdictExpiredError);
    expect(stale).toMatchObject({ code: "stale_verdict", paymentSent: false });
    expect(await at(329_000).preflightTrial({ url: url() })).toMatchObject({ signature: expect.any(String) });
  });

  it("an unreadable paymentRequired is refused before payment: 400 naming the field, nothing charged", async () => {
    const before = await svc.balanceOf(svc.payer(LOOKOUT_PAYER));
    const refusal = await refusedInput(`${svc.url}/api/v1/preflight`, { url: url(), paymentRequired: "not a header" });
    expect(refusal.status).toBe(400);
    expect((await body(refusal)).message).toMatch(/^paymentRequired: not a readable PAYMENT-REQUIRED header value/);
    const batch = await refusedInput(`${svc.url}/api/v1/preflight-batch`, { urls: [url(), { url: url(), paymentRequired: { accepts: [{}] } }] });
    expect((await body(batch)).message).toMatch(/^urls\[1\]\.paymentRequired: not a readable x402 challenge/);
    // The typed client refuses it unsent.
    const err = await lookout.preflight({ url: url(), paymentRequired: { accepts: [] } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, paymentSent: false });
    expect(await svc.balanceOf(svc.payer(LOOKOUT_PAYER))).toBe(before);
  });
});
