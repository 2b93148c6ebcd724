import { describe, expect, it } from "vitest";
import {
  guardFetch,
  LookoutNetworkError,
  NotFoundError,
  PaymentError,
  PreflightBlockedError,
  PreflightUnavailableError,
  ServiceUnavailableError,
  type GuardDecision,
  type GuardOptions,
  type PreflightReport,
} from "@x402-lookout/client";
import { PREFLIGHT_EXAMPLE } from "@x402-lookout/contracts/preflight/preflight";

const LOOKOUT = "http://127.0.0.1:8402";
const TARGET = "https://merchant.example/v1/forecast";

const report = (over: Partial<PreflightReport> = {}): PreflightReport =>
  ({
    ...PREFLIGHT_EXAMPLE,
    ok: true,
    warnings: [],
    reason_codes: [],
    recommended_action: "pay",
    metadata: { ...PREFLIGHT_EXAMPLE.metadata, url: TARGET, price_usdc: "0.002" },
    ...over,
  }) as PreflightReport;

const failure = (init: { status: number | null; code: string }) => ({ routeId: "preflight", paymentSent: false, paymentSettled: false, ...init });

/** A fake Lookout whose preflight answers come from `answer`, and a fake paying fetch that records what reached it. */
function harness(answer: (url: string) => Promise<PreflightReport> | PreflightReport, options: Partial<GuardOptions> = {}) {
  const preflights: string[] = [];
  const sent: string[] = [];
  const decisions: GuardDecision[] = [];
  let now = 0;
  const lookout: GuardOptions["lookout"] = {
    baseUrl: LOOKOUT,
    preflight: (async ({ url }: { url: string }) => {
      preflights.push(url);
      return answer(url);
    }) as GuardOptions["lookout"]["preflight"],
    alternatives: (async () => {
      throw new NotFoundError("none", failure({ status: 404, code: "no_alternatives" }));
    }) as unknown as GuardOptions["lookout"]["alternatives"],
    ...options.lookout,
  };
  const paying = (async (input: Request | string | URL) => {
    sent.push(String(input instanceof Request ? input.url : input));
    return new Response("{}", { status: 200 });
  }) as typeof fetch;
  const guarded = guardFetch(paying, { now: () => now, onDecision: (d) => decisions.push(d), ...options, lookout });
  return { guarded, preflights, sent, decisions, advance: (ms: number) => (now += ms) };
}

describe("guardFetch: what blocks", () => {
  it("lets a clean report through and sends the request once, after the check", async () => {
    const h = harness(() => report());
    expect((await h.guarded(TARGET)).status).toBe(200);
    expect(h.preflights).toEqual([TARGET]);
    expect(h.sent).toEqual([TARGET]);
  });

  it("fails closed on ok=false and on skip or use_alternatives, sending nothing", async () => {
    for (const r of [
      report({ ok: false, recommended_action: "investigate" }),
      report({ recommended_action: "skip" }),
      report({ ok: false, recommended_action: "use_alternatives", warnings: ["dead"] }),
    ]) {
      const h = harness(() => r);
      const err = await h.guarded(TARGET).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PreflightBlockedError);
      expect((err as PreflightBlockedError).report).toBe(r);
      expect((err as PreflightBlockedError).url).toBe(TARGET);
      expect(h.sent).toEqual([]);
    }
  });

  it("blocks the actions it is told to, and only those", async () => {
    const investigate = report({ recommended_action: "investigate", warnings: ["slow"] });
    expect((await harness(() => investigate).guarded(TARGET)).status).toBe(200);
    const strict = harness(() => investigate, { blockActions: ["skip", "use_alternatives", "investigate"] });
    await expect(strict.guarded(TARGET)).rejects.toMatchObject({ reasons: ["action"] });
    const lenient = harness(() => report({ recommended_action: "skip", warnings: ["suspicious_high_price"] }), { blockActions: [] });
    expect((await lenient.guarded(TARGET)).status).toBe(200);
  });

  it("lets endpoints no catalog lists through with a warning by default, and blocks them with unknown: block", async () => {
    const unknown = report({ recommended_action: "investigate", warnings: ["unknown_endpoint"] });
    const warned = harness(() => unknown);
    expect((await warned.guarded(TARGET)).status).toBe(200);
    expect(warned.decisions).toMatchObject([{ decision: "warn", reasons: ["unknown_endpoint"], mode: "unknown_warn" }]);
    const strict = harness(() => unknown, { unknown: "block" });
    await expect(strict.guarded(TARGET)).rejects.toMatchObject({ reasons: ["unknown_endpoint"] });
    expect(strict.sent).toEqual([]);
  });

  it("refuses the options it replaced rather than ignoring them", () => {
    for (const old of [{ failOpen: true }, { allowUnknown: true }])
      expect(() => harness(() => report(), old as Partial<GuardOptions>)).toThrow(/replaced by failMode/);
  });

  it("blocks prices above maxPriceUsdc, and unknown prices when a maximum is set", async () => {
    const priced = (price: string | null) => report({ metadata: { ...report().metadata, price_usdc: price } });
    expect((await harness(() => priced("0.002"), { maxPriceUsdc: "0.002" }).guarded(TARGET)).status).toBe(200);
    await expect(harness(() => priced("0.0020001"), { maxPriceUsdc: "0.002" }).guarded(TARGET)).rejects.toMatchObject({ reasons: ["price_above_max"] });
    await expect(harness(() => priced("2500"), { maxPriceUsdc: 1 }).guarded(TARGET)).rejects.toMatchObject({ reasons: ["price_above_max"] });
    await expect(harness(() => priced(null), { maxPriceUsdc: 1 }).guarded(TARGET)).rejects.toMatchObject({ reasons: ["price_unknown"] });
    // An older server said "" for an unknown price: still unknown.
    await expect(harness(() => priced(""), { maxPriceUsdc: 1 }).guarded(TARGET)).rejects.toMatchObject({ reasons: ["price_unknown"] });
  });

  it("attaches alternatives when asked, and still blocks when there are none", async () => {
    const dead = report({ ok: false, recommended_action: "use_alternatives", warnings: ["dead"] });
    const asked: unknown[] = [];
    const answer = {
      target: { url: TARGET },
      match_strategy: "url_target",
      alternatives: [{ url: "https://merchant.example/v2/forecast" }],
      candidate_count: 1,
    };
    const alternatives = (async (input: unknown) => (asked.push(input), answer)) as unknown as GuardOptions["lookout"]["alternatives"];
    const h = harness(() => dead, { alternatives: { limit: 3 }, lookout: { baseUrl: LOOKOUT, alternatives } as GuardOptions["lookout"] });
    const err = (await h.guarded(TARGET).catch((e: unknown) => e)) as PreflightBlockedError;
    expect(err.alternatives).toBe(answer);
    expect(asked).toEqual([{ url: TARGET, limit: 3 }]);
    const none = (await harness(() => dead, { alternatives: true })
      .guarded(TARGET)
      .catch((e: unknown) => e)) as PreflightBlockedError;
    expect(none).toBeInstanceOf(PreflightBlockedError);
    expect(none.alternatives).toBeUndefined();
  });
});

describe("guardFetch: when the service fails", () => {
  const outage = () => Promise.reject(new ServiceUnavailableError("down", failure({ status: 503, code: "service_unavailable" }), 30));

  it("fails closed by default, sending nothing", async () => {
    const h = harness(outage);
    await expect(h.guarded(TARGET)).rejects.toBeInstanceOf(PreflightUnavailableError);
    expect(h.sent).toEqual([]);
    expect(h.decisions).toMatchObject([{ decision: "block", mode: "failed_closed", reasons: ["service_unavailable"] }]);
  });

  it("fails open on an outage when told to, but never on a refused payment", async () => {
    const open = harness(outage, { failMode: "open" });
    expect((await open.guarded(TARGET)).status).toBe(200);
    const network = harness(() => Promise.reject(new LookoutNetworkError("refused", failure({ status: null, code: "network" }))), { failMode: "open" });
    expect((await network.guarded(TARGET)).status).toBe(200);
    expect(open.decisions).toMatchObject([{ decision: "warn", mode: "failed_open", reasons: ["service_unavailable"] }]);
    const unpaid = harness(() => Promise.reject(new PaymentError("cap", failure({ status: null, code: "spend_cap" }))), { failMode: "open" });
    await expect(unpaid.guarded(TARGET)).rejects.toBeInstanceOf(PreflightUnavailableError);
    expect(unpaid.sent).toEqual([]);
  });
});

describe("guardFetch: checks", () => {
  it("caches an answer for 5 minutes by default", async () => {
    const h = harness(() => report());
    await h.guarded(TARGET);
    h.advance(299_000);
    await h.guarded(TARGET);
    expect(h.preflights).toHaveLength(1);
    expect(h.decisions.map((d) => d.cached)).toEqual([false, true]);
    h.advance(1_000);
    await h.guarded(TARGET);
    expect(h.preflights).toHaveLength(2);
  });

  it("shares one check among concurrent requests to one URL", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = harness(async () => (await gate, report()));
    const calls = Array.from({ length: 5 }, () => h.guarded(TARGET));
    release();
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(h.preflights).toEqual([TARGET]);
    expect(h.sent).toHaveLength(5);
  });

  it("does not cache a failed check", async () => {
    let fail = true;
    const h = harness(() => (fail ? Promise.reject(new LookoutNetworkError("refused", failure({ status: null, code: "network" }))) : report()));
    await expect(h.guarded(TARGET)).rejects.toBeInstanceOf(PreflightUnavailableError);
    fail = false;
    expect((await h.guarded(TARGET)).status).toBe(200);
    expect(h.preflights).toHaveLength(2);
  });

  it("checks the endpoint without query or fragment, and never the Lookout service itself", async () => {
    const h = harness(() => report());
    await h.guarded(`${TARGET}?city=Lisbon#top`, { method: "GET" });
    await h.guarded(new Request(`${TARGET}?city=Porto`));
    await h.guarded(`${LOOKOUT}/api/v1/credits/abc`);
    expect(h.preflights).toEqual([TARGET]);
    expect(h.sent).toEqual([`${TARGET}?city=Lisbon#top`, `${TARGET}?city=Porto`, `${LOOKOUT}/api/v1/credits/abc`]);
  });

  it("takes the endpoint to check from `target`, where null sends unchecked", async () => {
    const h = harness(() => report(), { target: (u) => (u.hostname === "free.example" ? null : u.href) });
    await h.guarded("https://free.example/x");
    await h.guarded(`${TARGET}?v=1`);
    expect(h.preflights).toEqual([`${TARGET}?v=1`]);
  });
});
