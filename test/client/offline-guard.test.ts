import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PaymentRequired } from "@x402/core/types";
import {
  createOfflineGuard,
  guardFetch,
  lookoutPolicy,
  LookoutNetworkError,
  QuoteRefusedError,
  readPaymentRequired,
  requirementDigest,
  SnapshotRefusedError,
  type OfflineLookout,
} from "@x402-lookout/client";
import { createLookoutKeys } from "@x402-lookout/client/internal/jwks";
import { VerdictStore } from "@x402-lookout/client/internal/offline/store";
import type { VerdictDeltas, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import { PAY_TO, SNAPSHOT_BASE, snapshotSigner, USDC, verdictEntry, type SnapshotSigner } from "../helpers/signed-snapshots.js";

const T0 = Date.parse("2026-11-26T10:00:00.000Z");
const A = "https://a.example/api/weather";
const B = "https://b.example/api/zombie";
const C = "https://c.example/api/reseller";
const D = "https://d.example/api/unpriced";
const req = (over: Record<string, unknown> = {}) => ({
  scheme: "exact",
  network: "eip155:84532",
  asset: USDC,
  payTo: PAY_TO,
  amount: "10000",
  maxTimeoutSeconds: 60,
  extra: {},
  ...over,
});

let signer: SnapshotSigner;
let clock = T0;
const now = () => clock;
beforeAll(async () => {
  signer = await snapshotSigner();
});
afterEach(() => {
  clock = T0;
  vi.useRealTimers();
});

/** A Lookout client as the guard sees it: the snapshot, then the queued delta answers (or failures) in order. */
function lookout(snapshot: () => Promise<VerdictSnapshot>, deltas: Array<() => Promise<VerdictDeltas>> = [], s = signer) {
  const calls: Array<{ route: string; input: unknown }> = [];
  const preflight = vi.fn(async (input: { paymentRequired?: unknown }) => {
    const terms = readPaymentRequired(input.paymentRequired)!.accepts[0]!;
    return Object.defineProperty({ ok: true, recommended_action: "pay", warnings: [], metadata: { price_usdc: "0.02" } }, "verified", {
      value: { requirement_digest: await requirementDigest(terms) },
    });
  });
  const client = {
    baseUrl: SNAPSHOT_BASE,
    keys: createLookoutKeys(SNAPSHOT_BASE, s.fetch),
    preflight,
    verdictSnapshot: (input: unknown) => (calls.push({ route: "snapshot", input }), snapshot()),
    verdictDeltas: (input: { since: number }) => {
      calls.push({ route: "deltas", input });
      const next = deltas.shift();
      return next ? next() : Promise.reject(new Error("no more deltas queued"));
    },
  } as unknown as OfflineLookout;
  return { client, calls, preflight };
}

const catalog = () => [
  verdictEntry(A, { seq: 3 }),
  verdictEntry(B, { ok: false, action: "skip", warnings: ["zombie"], seq: 7 }),
  verdictEntry(C, { action: "use_alternatives", seq: 9 }),
  verdictEntry(D, { asset: null, seq: 10 }),
];

async function readyGuard(deltas: Array<() => Promise<VerdictDeltas>> = [], errors: unknown[] = []) {
  const snapshot = await signer.snapshot(10, catalog(), T0);
  const l = lookout(async () => snapshot, deltas);
  const guard = createOfflineGuard({ lookout: l.client, now, onError: (e) => errors.push(e) });
  expect(await guard.ready).toBe(true);
  return { guard, ...l };
}

describe("the offline guard decides catalogued payments locally", () => {
  it("allows a listing whose verdict passes and blocks one that is not ok or whose action blocks", async () => {
    const { guard } = await readyGuard();
    expect(guard.seq).toBe(10);
    expect(guard.decide(`${A}?city=Lisbon`, "get", req({ payTo: PAY_TO.toUpperCase().replace("0X", "0x") }))).toMatchObject({
      decision: "allow",
      reasons: [],
      entry: { url: A, seq: 3 },
    });
    expect(guard.decide(B, "GET", req())).toMatchObject({ decision: "block", reasons: ["not_ok", "action"] });
    expect(guard.decide(C, "GET", req())).toMatchObject({ decision: "block", reasons: ["action"] });
    // Before any 402 (no requirement yet) the verdict alone decides, as guardFetch's endpoint stage.
    expect(guard.decide(A, "GET")).toMatchObject({ decision: "allow" });
    guard.stop();
  });

  it("asks preflight (null) for a listing not catalogued, another method, or a quote other than the one judged", async () => {
    const { guard } = await readyGuard();
    expect(guard.decide("https://a.example/api/other", "GET", req())).toBeNull();
    // Another method finds the address's listing, as the service's matcher does: the quote still has to be the one judged.
    expect(guard.decide(A, "POST", req())).toMatchObject({ decision: "allow", entry: { url: A, method: "GET" } });
    expect(guard.decide("ftp://a.example/api/weather", "GET")).toBeNull();
    expect(guard.decide(A, "GET", req({ amount: "10001" }))).toBeNull();
    expect(guard.decide(A, "GET", req({ payTo: "0x2222222222222222222222222222222222222222" }))).toBeNull();
    expect(guard.decide(A, "GET", req({ asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }))).toBeNull();
    expect(guard.decide(A, "GET", req({ network: "eip155:8453" }))).toBeNull();
    // A padded amount reads two ways (BigInt and the text): the one amount reader never matches it.
    expect(guard.decide(A, "GET", req({ amount: "010000" }))).toBeNull();
    // So does a timeout written as text: the client signs a validBefore millennia away.
    expect(guard.decide(A, "GET", req({ maxTimeoutSeconds: "60" }))).toBeNull();
    // An entry that does not know the asset cannot vouch for the one being signed.
    expect(guard.decide(D, "GET", req())).toBeNull();
    expect(guard.decide(D, "GET")).toMatchObject({ decision: "allow" });
    guard.stop();
  });

  it("decides nothing once the snapshot has expired (15 minutes), and refuses one already expired", async () => {
    const { guard } = await readyGuard();
    clock = T0 + 899_000;
    expect(guard.decide(A, "GET", req())).not.toBeNull();
    clock = T0 + 900_000;
    expect(guard.decide(A, "GET", req())).toBeNull();
    expect(guard.decide(B, "GET", req())).toBeNull();
    guard.stop();
    const errors: unknown[] = [];
    const late = createOfflineGuard({ lookout: lookout(() => signer.snapshot(10, catalog(), T0)).client, now, onError: (e) => errors.push(e) });
    expect(await late.ready).toBe(false);
    expect(errors[0]).toBeInstanceOf(SnapshotRefusedError);
    expect(late.size).toBe(0);
    late.stop();
  });
});

describe("deltas keep the store current", () => {
  it("applies deltas in order, paging while truncated: changes replace, removals forget, the expiry moves on", async () => {
    const at = T0 + 600_000;
    const { guard, calls } = await readyGuard([
      () => signer.deltas(10, 11, [verdictEntry(A, { ok: false, action: "skip", seq: 11 })], [], at, true),
      () => signer.deltas(11, 12, [verdictEntry("https://d.example/new", { seq: 12 })], [{ url: B, method: "GET", seq: 12 }], at),
    ]);
    clock = at;
    await guard.refresh();
    expect(calls.map((c) => c.input)).toEqual([{}, { since: 10 }, { since: 11 }]);
    expect(guard.seq).toBe(12);
    expect(guard.decide(A, "GET", req())).toMatchObject({ decision: "block", entry: { seq: 11 } });
    expect(guard.decide(B, "GET", req())).toBeNull();
    expect(guard.decide("https://d.example/new", "GET", req())).toMatchObject({ decision: "allow" });
    clock = T0 + 1_000_000; // past the snapshot's expiry, within the deltas'
    expect(guard.decide(C, "GET", req())).toMatchObject({ decision: "block" });
    guard.stop();
  });

  it("refuses deltas that do not start at the store's seq, or whose signature or digest fails, and keeps the store", async () => {
    const other = await snapshotSigner("snapshot-test-key");
    const tampered = async () => {
      const d = await signer.deltas(10, 11, [verdictEntry(A, { seq: 11 })], [], T0);
      d.changed[0]!.ok = false;
      return d;
    };
    const { guard } = await readyGuard([
      () => signer.deltas(9, 11, [verdictEntry(A, { ok: false, seq: 11 })], [], T0),
      () => other.deltas(10, 11, [verdictEntry(A, { ok: false, seq: 11 })], [], T0),
      tampered,
      () => signer.deltas(10, 11, [], [{ url: A, method: "GET", seq: 2 }], T0),
    ]);
    await expect(guard.refresh()).rejects.toThrow(/start at 9, the store is at 10/);
    await expect(guard.refresh()).rejects.toThrow(/signature does not verify/);
    await expect(guard.refresh()).rejects.toThrow(/signs entries_digest/);
    expect(guard.seq).toBe(10);
    expect(guard.decide(A, "GET", req())).toMatchObject({ decision: "allow", entry: { seq: 3 } });
    // A removal older than the entry it names does not forget the newer entry.
    await guard.refresh();
    expect([guard.seq, guard.decide(A, "GET", req())?.decision]).toEqual([11, "allow"]);
    guard.stop();
  });

  it("never goes backwards: an older snapshot is refused", async () => {
    const store = new VerdictStore(createLookoutKeys(SNAPSHOT_BASE, signer.fetch), now);
    await store.applySnapshot(await signer.snapshot(10, catalog(), T0));
    await expect(store.applySnapshot(await signer.snapshot(9, [], T0))).rejects.toThrow(SnapshotRefusedError);
    expect([store.seq, store.size]).toEqual([10, 4]);
  });

  it("keeps the old store through a failure, takes a new snapshot when deltas are refused as too old, and polls on its interval", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const errors: unknown[] = [];
    const down = new LookoutNetworkError("offline", { routeId: "verdict-deltas", code: "network", status: null, paymentSent: false, paymentSettled: false });
    const { guard, calls } = await readyGuard([() => Promise.reject(down), () => signer.deltas(10, 10, [], [], T0 + 60_000)], errors);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(errors).toEqual([down]);
    expect(guard.decide(A, "GET", req())).not.toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.map((c) => c.route)).toEqual(["snapshot", "deltas", "deltas"]);
    guard.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls).toHaveLength(3);
  });
});

describe("check: local when it can, else the typed client's preflight on the quote", () => {
  it("answers a catalogued matching quote without a call, and sends another quote to preflight narrowed to it", async () => {
    const { guard, preflight } = await readyGuard();
    const challenge = (amount: string) => ({ x402Version: 2, resource: { url: A }, accepts: [req({ amount })] }) as unknown as PaymentRequired;
    const local = await guard.check(`${A}?q=1`, "GET", challenge("10000"));
    expect(local).toMatchObject({ stage: "quote", decision: "allow", reasons: [], snapshotEntry: { url: A } });
    expect(preflight).not.toHaveBeenCalled();
    const asked = await guard.check(`${A}?q=1`, "GET", challenge("20000"));
    expect(asked).toMatchObject({ stage: "quote", decision: "allow", reasons: [] });
    expect(asked.snapshotEntry).toBeUndefined();
    expect(preflight).toHaveBeenCalledWith({ url: A, method: "GET", paymentRequired: challenge("20000") });
    guard.stop();
  });
});

describe("check refuses a requirement that reads two ways itself", () => {
  it("blocks it with the service down and failMode open, where a well-formed unknown quote fails open", async () => {
    const snapshot = await signer.snapshot(10, catalog(), T0);
    const l = lookout(async () => snapshot);
    const down = new LookoutNetworkError("offline", { routeId: "preflight", code: "network", status: null, paymentSent: false, paymentSettled: false });
    l.preflight.mockImplementation(() => Promise.reject(down));
    const guard = createOfflineGuard({ lookout: l.client, now, failMode: "open" });
    expect(await guard.ready).toBe(true);
    const challenge = (over: Record<string, unknown>) => ({ x402Version: 2, resource: { url: A }, accepts: [req(over)] }) as unknown as PaymentRequired;
    for (const over of [{ amount: "0".repeat(34) + "010000", maxAmountRequired: "10000" }, { maxTimeoutSeconds: "60" }]) {
      const d = await guard.check(A, "GET", challenge(over));
      expect(d, JSON.stringify(over)).toMatchObject({ decision: "block", reasons: ["check_failed"] });
      expect(d.error, JSON.stringify(over)).toBeInstanceOf(QuoteRefusedError);
      expect((d.error as QuoteRefusedError).reason).toBe("malformed_quote");
    }
    expect(l.preflight).not.toHaveBeenCalled();
    expect(await guard.check(A, "GET", challenge({ amount: "20000" }))).toMatchObject({ decision: "warn", mode: "failed_open" });
    guard.stop();
  });
});

describe("an offline guard behind lookoutPolicy", () => {
  it("decides the payment hook's quote for the request it tapped from the snapshot, and asks preflight only for another quote", async () => {
    const { guard, client, preflight } = await readyGuard();
    const decisions: Array<{ decision: string; reasons: string[]; snapshotEntry?: unknown }> = [];
    const hook = lookoutPolicy({ lookout: client, offline: guard, onDecision: (d) => decisions.push(d) });
    const drawn = async (policy: typeof hook, url: string, paymentRequired: object) => {
      const header = Buffer.from(JSON.stringify(paymentRequired)).toString("base64");
      await policy.fetch(async () => new Response("{}", { status: 402, headers: { "payment-required": header } }))(url);
    };
    const pay = async (url: string, amount = "10000") => {
      const accepts = [req({ amount })];
      const paymentRequired = { x402Version: 2, resource: { url: `${url}?q=1` }, accepts };
      await drawn(hook, `${url}?q=1`, paymentRequired);
      return hook({ paymentRequired, selectedRequirements: accepts[0] } as never);
    };
    expect(await pay(A)).toBeUndefined();
    expect(await pay(B)).toMatchObject({ abort: true });
    expect(preflight).not.toHaveBeenCalled();
    expect(decisions).toMatchObject([
      { decision: "allow", reasons: [], snapshotEntry: { url: A } },
      { decision: "block", reasons: ["not_ok", "action"], snapshotEntry: { url: B } },
    ]);
    expect(await pay(A, "20000")).toBeUndefined();
    expect(preflight).toHaveBeenCalledTimes(1);
    expect(decisions[2]!.snapshotEntry).toBeUndefined();
    // A cap below the amount being signed blocks a local allow too.
    const capped = lookoutPolicy({ lookout: client, offline: guard, maxPriceUsdc: "0.001" });
    const accepts = [req()];
    await drawn(capped, A, { x402Version: 2, resource: { url: A }, accepts });
    expect(await capped({ paymentRequired: { x402Version: 2, resource: { url: A }, accepts }, selectedRequirements: accepts[0] } as never)).toMatchObject({
      abort: true,
    });
    guard.stop();
  });
});

describe("guardFetch with a ready snapshot buys no preflight for catalogued endpoints (issue 35 item 3)", () => {
  it("decides the endpoint stage locally for URLs as agents send them, and asks preflight only on a miss or once the snapshot expired", async () => {
    const { guard, client, preflight } = await readyGuard();
    preflight.mockImplementation(async () => ({ ok: true, recommended_action: "pay", warnings: [], metadata: { price_usdc: "0.02" } }) as never);
    const sent: string[] = [];
    const decisions: Array<{ stage: string; decision: string; snapshotEntry?: unknown }> = [];
    const guarded = guardFetch(async (input) => (sent.push(String(input)), new Response("{}")), {
      lookout: { ...client, alternatives: async () => undefined as never },
      offline: guard,
      now,
      onDecision: (d) => decisions.push(d),
    });
    const asSent = [`${A}?city=Lisbon`, `${A}/`, A.replace("a.example", "A.EXAMPLE"), A.replace("a.example", "a.example:443"), `${A}?city=Porto`, A];
    for (const url of asSent) await guarded(url);
    expect(sent).toHaveLength(6);
    expect(preflight).not.toHaveBeenCalled();
    expect(decisions.every((d) => d.stage === "endpoint" && d.decision === "allow" && d.snapshotEntry !== undefined)).toBe(true);
    await expect(guarded(B)).rejects.toMatchObject({ name: "SnapshotBlockedError", reasons: ["not_ok", "action"], entry: { url: B } });
    expect(sent).toHaveLength(6);
    // A price cap holds at the endpoint stage too, and an entry without a price is over any cap.
    const capped = guardFetch(async () => new Response("{}"), {
      lookout: { ...client, alternatives: async () => undefined as never },
      offline: guard,
      now,
      maxPriceUsdc: "0.001",
    });
    await expect(capped(A)).rejects.toMatchObject({ reasons: ["price_above_max"] });
    expect(preflight).not.toHaveBeenCalled();
    // An uncatalogued URL, an expired snapshot: preflight decides.
    await guarded("https://a.example/api/other");
    clock = T0 + 900_000;
    await guarded(A);
    expect(preflight).toHaveBeenCalledTimes(2);
    guard.stop();
  });

  it("finds a route template's entry by the path it fills, and an address with two methods only by the method", async () => {
    const template = "https://geo.example/weather/:city";
    const snapshot = await signer.snapshot(
      4,
      [verdictEntry(template, { seq: 1 }), verdictEntry(A, { seq: 2 }), verdictEntry(A, { method: "POST", ok: false, action: "skip", seq: 3 })],
      T0,
    );
    const store = new VerdictStore(createLookoutKeys(SNAPSHOT_BASE, signer.fetch), now);
    await store.applySnapshot(snapshot);
    expect(store.get("https://GEO.example/weather/Lisbon/?units=c", "GET")?.url).toBe(template);
    expect(store.get("https://geo.example/weather/Lisbon/today", "GET")).toBeUndefined();
    expect(store.get(`${A}/`, "post")?.action).toBe("skip");
    expect(store.get(`${A}?x=1`, "GET")?.action).toBe("pay");
    expect(store.get(A)).toBeUndefined();
    expect(store.get("https://geo.example/weather/Porto")?.url).toBe(template);
  });
});
