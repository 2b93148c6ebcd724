import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookoutClient, guardFetch, PreflightBlockedError, type CallInfo, type LookoutClient } from "@x402-lookout/client";
import type { DemoEndpoint, DemoFleet } from "../../src/demo/index.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startProbedDemoFleet } from "../helpers/demo-fleet.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

let svc: PaidService;
let fleet: DemoFleet;
let lookout: LookoutClient;
const lookoutCalls: CallInfo[] = [];
const AGENT = 2;
const LOOKOUT_PAYER = 3;

/** What reached the demo merchants through the agent's paying fetch, in order. */
const merchantLog: Array<{ url: string; paid: boolean }> = [];
const events: string[] = [];
const spy: typeof fetch = (input, init) => {
  const req = new Request(input, init);
  merchantLog.push({ url: req.url, paid: req.headers.has("payment-signature") });
  events.push(req.headers.has("payment-signature") ? "merchant paid" : "merchant");
  return fetch(req);
};

const endpoint = (kind: DemoEndpoint["kind"], path?: string) => fleet.endpoints.find((e) => e.kind === kind && (!path || e.url.endsWith(path)))!;
const reached = (url: string) => merchantLog.filter((r) => r.url.startsWith(url));
const agentGuard = (opts: Partial<Parameters<typeof guardFetch>[1]> = {}) => guardFetch(svc.payingFetch(AGENT, { inner: spy }), { lookout, ...opts });

beforeAll(async () => {
  svc = await startPaidService({ routes: productRoutes, env: { ALLOW_PRIVATE_TARGETS: "true" } });
  fleet = await startProbedDemoFleet(svc.ctx, svc.devnet);
  lookout = createLookoutClient({
    baseUrl: svc.url,
    signer: privateKeyToAccount(svc.devnet.demoAccounts[LOOKOUT_PAYER]!.privateKey),
    onCall: (info) => {
      lookoutCalls.push(info);
      events.push(info.routeId);
    },
    now: () => svc.ctx.clock.now().getTime(),
  });
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await svc?.close();
});

describe("guardFetch in front of an agent's paying fetch, against the demo fleet", () => {
  it("refuses the demo decoy: no request reaches it, nothing is paid", async () => {
    const decoy = endpoint("decoy");
    const before = await svc.balanceOf(svc.payer(AGENT));
    const err = await agentGuard()(decoy.url, { method: decoy.method, headers: { "content-type": "application/json" }, body: "{}" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreflightBlockedError);
    const blocked = err as PreflightBlockedError;
    expect(blocked.report).toMatchObject({ ok: false, recommended_action: "skip" });
    expect(blocked.report.warnings).toContain("decoy_price_extreme");
    expect(blocked.reasons).toEqual(["not_ok", "action"]);
    expect(reached(decoy.url)).toEqual([]);
    expect(await svc.balanceOf(svc.payer(AGENT))).toBe(before);
  });

  it("refuses the demo dead endpoint and hands over healthy alternatives", async () => {
    const dead = endpoint("dead_5xx");
    const err = (await agentGuard({ alternatives: { limit: 3 } })(dead.url, { method: "POST", body: "{}" }).catch((e: unknown) => e)) as PreflightBlockedError;
    expect(err).toBeInstanceOf(PreflightBlockedError);
    expect(err.report).toMatchObject({ ok: false, recommended_action: "use_alternatives" });
    expect(err.report.warnings).toContain("dead");
    const alternatives = err.alternatives!.alternatives;
    expect(alternatives.length).toBeGreaterThan(0);
    expect(alternatives.map((a) => a.url)).not.toContain(dead.url);
    expect(alternatives[0]!.match_reason).toBe("same_service");
    expect(reached(dead.url)).toEqual([]);
  });

  it("lets a healthy demo endpoint through, after the check, and the agent pays it exactly once", async () => {
    const healthy = endpoint("healthy", "/weather/current");
    const before = await svc.balanceOf(svc.payer(AGENT));
    events.length = 0;
    const res = await agentGuard()(`${healthy.url}?city=Lisbon`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ city: "Lisbon" });
    expect(reached(healthy.url).map((r) => r.paid)).toEqual([false, true]);
    expect(events).toEqual(["preflight", "merchant", "merchant paid"]);
    expect(before - (await svc.balanceOf(svc.payer(AGENT)))).toBe(BigInt(healthy.amount));
    // The check was paid by the Lookout client's own wallet, not the agent's.
    expect(lookoutCalls.at(-1)).toMatchObject({ routeId: "preflight", paymentSent: true });
    expect(lookoutCalls.at(-1)!.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("reuses an answer for five minutes and checks concurrent requests to one endpoint once", async () => {
    const healthy = endpoint("healthy", "/weather/forecast");
    // A guard over a plain fetch: the merchants answer 402 and nobody pays.
    const guarded = guardFetch(fetch, { lookout });
    const preflights = () => lookoutCalls.filter((c) => c.routeId === "preflight").length;
    const start = preflights();
    const answers = await Promise.all(Array.from({ length: 4 }, () => guarded(`${healthy.url}?city=Porto&days=2`)));
    expect(answers.map((r) => r.status)).toEqual([402, 402, 402, 402]);
    await guarded(healthy.url);
    expect(preflights() - start).toBe(1);
  });
});
