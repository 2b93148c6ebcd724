import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import {
  createLookoutClient,
  guardFetch,
  VerdictExpiredError,
  VerdictKeysUnavailableError,
  VerdictSignatureError,
  VERDICT_JWS,
  type GuardDecision,
  type LookoutClientOptions,
} from "@x402-lookout/client";

/**
 * Issue 34 item 3, the client half, without the network: verdicts judged at the agent's clock
 * (decision 0030), the key set refetched on a new kid and on its age, a removed key no longer
 * trusted, and what the guard makes of a stale verdict. A fake service signs trial answers as
 * the real one does (EdDSA, typ lookout-verdict+jwt) with keys it can add and remove.
 */
const BASE = "http://127.0.0.1:8402";
const TARGET = "https://merchant.example/v1/forecast";
const T0 = Date.parse("2026-11-20T12:00:00.000Z");

async function fakeService() {
  const keys = new Map<string, { privateKey: CryptoKey; jwk: JWK }>();
  const published = new Set<string>();
  const state = {
    ...{ signWith: "", observedAt: T0, jwksFetches: 0, jwksDown: false, trialCalls: 0 },
    // The answer's reason_codes, and what the signature says of them: "legacy" signs none (before decision 0045).
    reasonCodes: [] as string[],
    signedReasonCodes: [] as string[] | "legacy",
  };
  async function addKey(kid: string) {
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    keys.set(kid, { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "EdDSA", use: "sig" } });
    published.add(kid);
    state.signWith = kid;
  }
  const fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const path = new URL(req.url).pathname;
    if (path === VERDICT_JWS.jwksPath) {
      state.jwksFetches++;
      if (state.jwksDown) return new Response("down", { status: 503 });
      return Response.json({ keys: [...published].map((kid) => keys.get(kid)!.jwk) });
    }
    state.trialCalls++;
    const { url } = (await req.json()) as { url: string };
    const observed_at = new Date(state.observedAt).toISOString();
    const verdict = { ok: true, recommended_action: "pay" as const, warnings: [], risk_score: 0.1 };
    const signedCodes = state.signedReasonCodes === "legacy" ? {} : { reason_codes: state.signedReasonCodes };
    const claims = { iss: BASE, url, method: "GET", requirement_digest: null, view: "preflight", ...verdict, ...signedCodes, observed_at };
    const signature = await new SignJWT({ ...claims, exp: Math.floor(state.observedAt / 1000) + VERDICT_JWS.lifetimeSeconds })
      .setProtectedHeader({ alg: VERDICT_JWS.alg, typ: VERDICT_JWS.typ, kid: state.signWith })
      .sign(keys.get(state.signWith)!.privateKey);
    return Response.json({ url, ...verdict, reason_codes: state.reasonCodes, observed_at, metadata: { price_usdc: "0.01" }, signature });
  }) as typeof globalThis.fetch;
  await addKey("k1");
  return { state, fetch, addKey, unpublish: (kid: string) => published.delete(kid) };
}

async function setUp(options: Partial<LookoutClientOptions> = {}) {
  const svc = await fakeService();
  const clock = { now: T0 };
  const client = createLookoutClient({ baseUrl: BASE, fetch: svc.fetch, now: () => clock.now, ...options });
  const trial = () => client.preflightTrial({ url: TARGET }).catch((e: unknown) => e as Error);
  return { svc, clock, client, trial };
}

describe("a verdict's expiry is judged at the agent's clock", () => {
  it("expired beyond the 30 s tolerance is VerdictExpiredError (stale_verdict); within it, verified; observed_at only on request", async () => {
    const { svc, clock, trial } = await setUp();
    expect(await trial()).toMatchObject({ recommended_action: "pay" });
    clock.now = T0 + (300 + 29) * 1000;
    expect((await trial()) as { verified?: unknown }).toHaveProperty("verified");
    clock.now = T0 + (300 + 31) * 1000;
    const stale = await trial();
    expect(stale).toBeInstanceOf(VerdictExpiredError);
    expect(stale).toBeInstanceOf(VerdictSignatureError);
    expect(stale).toMatchObject({ code: "stale_verdict", status: 200, paymentSent: false });
    // A replayed answer does not get younger by saying so: observed_at is what the signature covers.
    svc.state.observedAt = T0 - 3600_000;
    clock.now = T0;
    expect(await trial()).toBeInstanceOf(VerdictExpiredError);
    // An archive check judges at the answer's own moment, and must ask for it.
    const archive = createLookoutClient({ baseUrl: BASE, fetch: svc.fetch, verdictTime: "observed_at" });
    expect(await archive.preflightTrial({ url: TARGET })).toMatchObject({ recommended_action: "pay" });
    expect(() => createLookoutClient({ baseUrl: BASE, verdictTime: "observed" as never })).toThrow(/verdictTime/);
  });

  it("without a clock option, the clock is the agent's own: a verdict from the test service's past is stale", async () => {
    const svc = await fakeService();
    const client = createLookoutClient({ baseUrl: BASE, fetch: svc.fetch });
    svc.state.observedAt = Date.now() - 301_000 - 30_000;
    expect(await client.preflightTrial({ url: TARGET }).catch((e: unknown) => e)).toBeInstanceOf(VerdictExpiredError);
    svc.state.observedAt = Date.now();
    expect(await client.preflightTrial({ url: TARGET })).toMatchObject({ ok: true });
  });
});

describe("the signature covers reason_codes (decision 0045)", () => {
  it("refuses an answer whose reason_codes are not the signed ones: an addition cannot be slipped in or out", async () => {
    const { svc, trial } = await setUp();
    svc.state.reasonCodes = ["cloaking"];
    expect(await trial()).toMatchObject({ code: "bad_signature", message: expect.stringMatching(/signs reason_codes \[\], the answer says \["cloaking"\]/) });
    svc.state.signedReasonCodes = ["cloaking"];
    expect(await trial()).toMatchObject({ reason_codes: ["cloaking"], warnings: [] });
    svc.state.reasonCodes = [];
    expect(await trial()).toMatchObject({ code: "bad_signature" });
  });

  it("still verifies a verdict signed before it (no reason_codes claim) while its reason_codes equal its warnings", async () => {
    const { svc, trial } = await setUp();
    svc.state.signedReasonCodes = "legacy";
    expect(await trial()).toMatchObject({ ok: true, reason_codes: [] });
    svc.state.reasonCodes = ["cloaking"];
    expect(await trial()).toMatchObject({ code: "bad_signature" });
  });
});

describe("the key set", () => {
  it("is fetched again on a new kid (a rotation verifies at once) and, for a second unknown kid, not before the pause", async () => {
    const { svc, clock, trial } = await setUp();
    await trial();
    expect(svc.state.jwksFetches).toBe(1);
    await svc.addKey("k2");
    expect(await trial()).toMatchObject({ ok: true });
    expect(svc.state.jwksFetches).toBe(2);
    // Another new kid 1 s later: no fetch, a miss (an outage to the guard), not a forgery.
    await svc.addKey("k3");
    clock.now += 1000;
    expect(await trial()).toMatchObject({ code: "keys_unavailable" });
    expect(svc.state.jwksFetches).toBe(2);
    clock.now += 10_000;
    expect(await trial()).toMatchObject({ ok: true });
    expect(svc.state.jwksFetches).toBe(3);
  });

  it("a removed key stops being trusted at the next fetch (at most 5 minutes later); a kid the fresh set lacks is a bad signature", async () => {
    const { svc, clock, trial } = await setUp();
    await trial();
    svc.unpublish("k1");
    clock.now += 60_000;
    svc.state.observedAt = clock.now;
    expect(await trial()).toMatchObject({ ok: true }); // the set fetched a minute ago still holds k1
    clock.now += 4 * 60_000;
    svc.state.observedAt = clock.now;
    const refused = await trial();
    expect(refused).toBeInstanceOf(VerdictSignatureError);
    expect(refused).not.toBeInstanceOf(VerdictKeysUnavailableError);
    expect(refused).toMatchObject({ code: "bad_signature" });
    expect(svc.state.jwksFetches).toBe(3); // the first, the one after 5 minutes, the one the unknown kid asked for
    // Missing from a fetch made since it was first met: conclusive at once, no pause, no fetch.
    expect(await trial()).toMatchObject({ code: "bad_signature" });
    expect(svc.state.jwksFetches).toBe(3);
  });

  it("a JWKS that does not answer is VerdictKeysUnavailableError (keys_unavailable), never a pass", async () => {
    const { svc, trial } = await setUp();
    svc.state.jwksDown = true;
    const err = await trial();
    expect(err).toBeInstanceOf(VerdictKeysUnavailableError);
    expect(err).toMatchObject({ code: "keys_unavailable" });
  });
});

describe("the guard and a stale verdict", () => {
  async function guarded(failMode: "open" | "closed") {
    const { svc, clock, client } = await setUp();
    const decisions: GuardDecision[] = [];
    const sent: string[] = [];
    const inner = (async (input: Request | string | URL) => (sent.push(String(input)), new Response("paid"))) as typeof fetch;
    const lookout = { baseUrl: BASE, preflight: client.preflightTrial, alternatives: client.alternatives } as never;
    const guard = guardFetch(inner, { lookout, failMode, now: () => clock.now, onDecision: (d) => decisions.push(d) });
    return { svc, clock, decisions, sent, guard };
  }

  it("asks again once, then its failMode decides (closed: blocked as stale_verdict, nothing sent); open warns", async () => {
    for (const failMode of ["closed", "open"] as const) {
      const { svc, decisions, sent, guard } = await guarded(failMode);
      svc.state.observedAt = T0 - 400_000; // a mirror's replay, every time
      const result = await guard(TARGET).catch((e: unknown) => e);
      expect(svc.state.trialCalls, failMode).toBe(2);
      const mode = failMode === "open" ? "failed_open" : "failed_closed";
      expect(decisions, failMode).toMatchObject([{ decision: failMode === "open" ? "warn" : "block", reasons: ["stale_verdict"], mode }]);
      expect(decisions[0]!.error).toBeInstanceOf(VerdictExpiredError);
      if (failMode === "closed") expect((result as Error).message).toMatch(/verdict expired/);
      expect(sent, failMode).toEqual(failMode === "open" ? [TARGET] : []);
    }
  });

  it("a Lookout client set to judge at observed_at (archives) does not make a stale verdict pass: the guard judges exp at its own clock", async () => {
    const svc = await fakeService();
    const archive = createLookoutClient({ baseUrl: BASE, fetch: svc.fetch, verdictTime: "observed_at" });
    const decisions: GuardDecision[] = [];
    const lookout = { baseUrl: BASE, preflight: archive.preflightTrial, alternatives: archive.alternatives } as never;
    const sent: string[] = [];
    const inner = (async (input: Request | string | URL) => (sent.push(String(input)), new Response("paid"))) as typeof fetch;
    const guard = guardFetch(inner, { lookout, now: () => T0, onDecision: (d) => decisions.push(d) });
    svc.state.observedAt = T0 - 400_000;
    await expect(guard(TARGET)).rejects.toThrow(/expired at .* by the guard's clock/);
    expect(decisions).toMatchObject([{ decision: "block", reasons: ["stale_verdict"], mode: "failed_closed" }]);
    expect(sent).toEqual([]);
  });

  it("a kept verdict past its exp is asked again, not reused, though the 5-minute cache would still hold it", async () => {
    const { svc, clock, decisions, guard } = await guarded("closed");
    svc.state.observedAt = T0 - 200_000; // valid 100 s more
    expect((await guard(TARGET)).status).toBe(200);
    clock.now = T0 + 60_000;
    expect((await guard(TARGET)).status).toBe(200);
    clock.now = T0 + 110_000;
    svc.state.observedAt = clock.now;
    expect((await guard(TARGET)).status).toBe(200);
    expect(svc.state.trialCalls).toBe(2);
    expect(decisions.map((d) => [d.decision, d.cached])).toEqual([
      ["allow", false],
      ["allow", true],
      ["allow", false],
    ]);
  });
});
