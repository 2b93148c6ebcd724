import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TRIAL } from "../../src/services/signals/constants.js";
import { createTrialCacheStore } from "../../src/services/trial/trial-cache.js";
import { clientNetwork } from "../../src/services/trial/client-network.js";
import { createTrialQuota, HOST_CALLS_PER_NETWORK, TrialLimitExceeded, type TrialCall } from "../../src/services/trial/trial-quota.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

const NOON = new Date("2026-11-22T12:00:00.000Z");

/**
 * The trial quota's statement serves the calls of one event-loop turn, at most TRIAL_BATCH_MAX of
 * them; the tests of one statement's order give it the whole turn.
 */
describe("trial calls coalesced per event-loop turn", () => {
  const wholeTurn = { batchMax: 1_000 };
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    await db.close();
  });

  const call = (ip: string, host: string, path = "/x"): TrialCall => ({ ip, host, urlNormalized: `https://${host}${path}` });
  /** "ok", "ip" or "host" per call, in call order. */
  const outcomes = (results: PromiseSettledResult<unknown>[]) =>
    results.map((r) => (r.status === "fulfilled" ? "ok" : r.reason instanceof TrialLimitExceeded ? r.reason.scope : String(r.reason)));
  const counts = async (scope: "ip" | "host" | "host_net") =>
    Object.fromEntries(
      (await db.db.selectFrom("trial_counters").select(["key", "count"]).where("scope", "=", scope).where("count", ">", 0).execute()).map((r) => [
        r.key,
        r.count,
      ]),
    );

  it("grants an IP's first ten calls of a turn and never counts the refused ones against their hosts", async () => {
    const consume = createTrialQuota(db, wholeTurn);
    const results = await Promise.allSettled(Array.from({ length: 15 }, (_, i) => consume(call("192.0.2.1", `h${i}.example`), NOON)));
    expect(outcomes(results)).toEqual([...Array(10).fill("ok"), ...Array(5).fill("ip")]);
    expect(await counts("ip")).toEqual({ "192.0.2.1": TRIAL.perIpPerDay });
    expect(Object.keys(await counts("host")).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `h${i}.example`).sort());
  });

  it("grants a host's first fifty calls of a turn; the refused calls still count against their IPs", async () => {
    const consume = createTrialQuota(db, wholeTurn);
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => consume(call(`198.51.${i}.1`, "busy.example"), NOON)));
    expect(outcomes(results)).toEqual([...Array(50).fill("ok"), ...Array(10).fill("host")]);
    expect(await counts("host")).toEqual({ "busy.example": TRIAL.perHostPerDay });
    expect(Object.keys(await counts("ip"))).toHaveLength(60);
  });

  it("counts exactly when a turn's calls fill several statements in flight at once", async () => {
    const consume = createTrialQuota(db);
    // One IP, fifteen hosts: more than one statement; whichever runs first, exactly ten calls pass and only their hosts are counted.
    const ipCalls = Array.from({ length: 15 }, (_, i) => call("192.0.2.2", `g${i}.example`));
    const byIp = outcomes(await Promise.allSettled(ipCalls.map((c) => consume(c, NOON))));
    expect(byIp.filter((o) => o === "ok")).toHaveLength(TRIAL.perIpPerDay);
    expect(byIp.filter((o) => o === "ip")).toHaveLength(15 - TRIAL.perIpPerDay);
    expect(Object.keys(await counts("host")).sort()).toEqual(
      ipCalls
        .filter((_, i) => byIp[i] === "ok")
        .map((c) => c.host)
        .sort(),
    );
    // One host, sixty IPs: several statements; exactly fifty pass, and every IP is counted once.
    const byHost = outcomes(await Promise.allSettled(Array.from({ length: 60 }, (_, i) => consume(call(`198.51.${i}.1`, "crowded.example"), NOON))));
    expect(byHost.filter((o) => o === "ok")).toHaveLength(TRIAL.perHostPerDay);
    expect(byHost.filter((o) => o === "host")).toHaveLength(60 - TRIAL.perHostPerDay);
    expect((await counts("host"))["crowded.example"]).toBe(TRIAL.perHostPerDay);
    expect(Object.values(await counts("ip")).filter((n) => n === 1)).toHaveLength(60);
  });

  it("continues from the counts earlier turns left, both limits in one turn", async () => {
    const consume = createTrialQuota(db);
    await Promise.all(Array.from({ length: 46 }, (_, i) => consume(call(`203.0.${i}.1`, "nearly.example"), NOON)));
    await Promise.all(Array.from({ length: 4 }, () => consume(call("192.0.2.9", "other.example"), NOON)));
    // 192.0.2.9 has 6 left; nearly.example has 4 left, its network 5 of them.
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => consume(call("192.0.2.9", "nearly.example"), NOON)));
    expect(outcomes(results)).toEqual(["ok", "ok", "ok", "ok", "host", "host_network", "ip", "ip"]);
    expect((await counts("ip"))["192.0.2.9"]).toBe(10);
    expect((await counts("host"))["nearly.example"]).toBe(50);
  });

  it("counts calls of one turn on either side of UTC midnight on their own days", async () => {
    const consume = createTrialQuota(db);
    const before = new Date("2026-11-22T23:59:59.900Z");
    const after = new Date("2026-11-23T00:00:00.100Z");
    const results = await Promise.allSettled([
      ...Array.from({ length: 10 }, (_, i) => consume(call("192.0.2.7", `a${i}.example`), before)),
      ...Array.from({ length: 3 }, (_, i) => consume(call("192.0.2.7", `a${i}.example`), after)),
    ]);
    expect(outcomes(results)).toEqual(Array(13).fill("ok"));
    const days = await db.db.selectFrom("trial_counters").select(["day", "count"]).where("scope", "=", "ip").orderBy("day").execute();
    expect(days.map((d) => d.count)).toEqual([10, 3]);
  });

  it("two API processes counting the same IPs and hosts in opposite orders agree exactly", async () => {
    // The networks' shares are left out here (one network per host): the IP and host counts are the subject.
    const noShares = { perHostPerNetwork: TRIAL.perHostPerDay };
    const [one, two] = [createTrialQuota(db, noShares), createTrialQuota(db, noShares)];
    const ips = Array.from({ length: 6 }, (_, i) => `192.0.2.${100 + i}`);
    const hosts = ["p.example", "q.example", "r.example"];
    const calls = Array.from({ length: 120 }, (_, i) => [call(ips[i % 6]!, hosts[i % 3]!), call(ips[5 - (i % 6)]!, hosts[2 - (i % 3)]!)] as const);
    const results = await Promise.allSettled(calls.flatMap(([a, b]) => [one(a, NOON), two(b, NOON)]));
    const o = outcomes(results);
    expect(o.every((x) => x === "ok" || x === "ip" || x === "host")).toBe(true);
    // Six IPs of ten calls each: sixty pass the IP limit, within three hosts' 150.
    expect(o.filter((x) => x === "ok")).toHaveLength(60);
    expect(Object.values(await counts("ip"))).toEqual(Array(6).fill(10));
    expect(Object.values(await counts("host")).reduce((a, b) => a + b, 0)).toBe(60);
  });

  it("stores the answers of one turn in one statement, the last one per URL winning, and reads them back", async () => {
    const consume = createTrialQuota(db);
    const store = createTrialCacheStore(db);
    const report = (n: number) => ({ ok: true, n }) as never;
    await Promise.all([
      store("https://c.example/x", report(1), NOON),
      store("https://d.example/x", report(2), NOON),
      store("https://c.example/x", report(3), NOON),
    ]);
    expect(await consume(call("192.0.2.50", "c.example"), NOON)).toEqual({ ok: true, n: 3 });
    expect(await consume(call("192.0.2.50", "d.example"), NOON)).toEqual({ ok: true, n: 2 });
    expect(await consume(call("192.0.2.50", "c.example"), new Date(NOON.getTime() + TRIAL.cacheSeconds * 1000))).toBeUndefined();
  });
  it("stores a call's offered answer in its counting statement: later calls of the URL get it, a refused call stores nothing", async () => {
    const consume = createTrialQuota(db);
    const report = (n: number) => ({ ok: true, n }) as never;
    const offered = (ip: string, host: string, n: number) => ({ ...call(ip, host), offer: report(n) });
    // One turn: the first call of e.example stores its offer and the second gets that one, not its own.
    expect(await Promise.all([consume(offered("192.0.2.60", "e.example", 1), NOON), consume(offered("192.0.2.61", "e.example", 2), NOON)])).toEqual([
      { ok: true, n: 1 },
      { ok: true, n: 1 },
    ]);
    // A later turn reads the stored answer; a call without an offer gets it too.
    expect(await consume(offered("192.0.2.62", "e.example", 3), NOON)).toEqual({ ok: true, n: 1 });
    expect(await consume(call("192.0.2.62", "e.example"), NOON)).toEqual({ ok: true, n: 1 });
    // Once the answer expires, the next offer replaces it.
    const later = new Date(NOON.getTime() + TRIAL.cacheSeconds * 1000);
    expect(await consume(offered("192.0.2.62", "e.example", 4), later)).toEqual({ ok: true, n: 4 });
    expect(await consume(call("192.0.2.63", "e.example"), later)).toEqual({ ok: true, n: 4 });
    // An IP past its limit offers an answer for a new URL: refused, and nothing is stored.
    await Promise.all(Array.from({ length: 10 }, (_, i) => consume(call("192.0.2.64", `f${i}.example`), NOON)));
    await expect(consume(offered("192.0.2.64", "f.example", 5), NOON)).rejects.toBeInstanceOf(TrialLimitExceeded);
    expect(await db.db.selectFrom("trial_cache").select("url_normalized").where("url_normalized", "=", "https://f.example/x").execute()).toEqual([]);
  });

  it("serves a cached answer only while its verdict holds: an offer of another verdict replaces it at once", async () => {
    const consume = createTrialQuota(db);
    const report = (action: string, n: number) =>
      ({ ok: action === "pay", recommended_action: action, warnings: action === "pay" ? [] : ["dead"], n }) as never;
    const offered = (ip: string, action: string, n: number) => ({ ...call(ip, "g.example"), offer: report(action, n) });
    const at = (s: number) => new Date(NOON.getTime() + s * 1000);
    expect(await consume(offered("192.0.2.70", "pay", 1), at(0))).toMatchObject({ n: 1 });
    expect(await consume(offered("192.0.2.71", "pay", 2), at(10))).toMatchObject({ n: 1 });
    // The endpoint died: the stored verdict says so, and the trial does too, well inside the 300 s.
    expect(await consume(offered("192.0.2.72", "use_alternatives", 3), at(20))).toMatchObject({ n: 3, recommended_action: "use_alternatives" });
    expect(await consume(call("192.0.2.73", "g.example"), at(30))).toMatchObject({ n: 3 });
  });
});

/** Decision 0027: a host's trial is shared out per client network, and cached answers cost it nothing. */
describe("a target host's trial per client network", () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    await db.close();
  });
  const call = (ip: string, path: string, host = "target.example"): TrialCall => ({ ip, host, urlNormalized: `https://${host}${path}` });
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => "ok",
      (e: unknown) => (e instanceof TrialLimitExceeded ? e.scope : String(e)),
    );
  const hostCount = async (key: string) =>
    (await db.db.selectFrom("trial_counters").select("count").where("scope", "=", "host").where("key", "=", key).executeTakeFirst())?.count ?? 0;

  it("lets five addresses use half a host's 50 at most; other networks get the rest", async () => {
    const consume = createTrialQuota(db);
    for (let c = 0; c < 5; c++) {
      const got = [];
      for (let i = 0; i < 10; i++) got.push(await outcome(consume(call(`198.51.${c}.7`, `/c${c}/${i}`), NOON)));
      expect(got).toEqual([...Array(HOST_CALLS_PER_NETWORK).fill("ok"), ...Array(10 - HOST_CALLS_PER_NETWORK).fill("host_network")]);
    }
    expect(await hostCount("target.example")).toBe(5 * HOST_CALLS_PER_NETWORK);
    const others = [];
    for (let i = 0; i < 26; i++) others.push(await outcome(consume(call(`203.0.${i}.1`, `/o/${i}`), NOON)));
    expect(others).toEqual([...Array(25).fill("ok"), "host"]);
    expect(await hostCount("target.example")).toBe(TRIAL.perHostPerDay);
  });

  it("groups addresses by /24 (IPv4, mapped IPv6 too) and /48 (IPv6)", async () => {
    expect(clientNetwork("192.0.2.1")).toBe(clientNetwork("192.0.2.254"));
    expect(clientNetwork("::ffff:192.0.2.9")).toBe(clientNetwork("192.0.2.1"));
    expect(clientNetwork("192.0.2.1")).not.toBe(clientNetwork("192.0.3.1"));
    expect(clientNetwork("2001:db8:1:ffff::1")).toBe(clientNetwork("2001:db8:1::2"));
    expect(clientNetwork("2001:db8:1::1")).not.toBe(clientNetwork("2001:db8:2::1"));
    const consume = createTrialQuota(db);
    const v6 = Array.from({ length: 6 }, (_, i) => `2001:db8:7:${i}::1`);
    const got = [];
    for (const [i, ip] of v6.entries()) got.push(await outcome(consume(call(ip, `/v6/${i}`), NOON)));
    expect(got).toEqual([...Array(HOST_CALLS_PER_NETWORK).fill("ok"), "host_network"]);
  });

  it("counts a call answered from the cache against its IP only; a quote-bound call always counts", async () => {
    const consume = createTrialQuota(db);
    const store = createTrialCacheStore(db);
    await store("https://target.example/cached", { ok: true } as never, NOON);
    for (let i = 0; i < 10; i++) expect(await outcome(consume(call(`192.0.2.${i}`, "/cached"), NOON))).toBe("ok");
    expect(await hostCount("target.example")).toBe(0);
    // The same answer, bound to a caller's quote, is that caller's alone: counted against the host.
    expect(await outcome(consume({ ...call("192.0.2.99", "/cached"), cacheable: false }, NOON))).toBe("ok");
    expect(await hostCount("target.example")).toBe(1);
    // Past 300 s the answer is stale: the next call is charged to the host again.
    expect(await outcome(consume(call("192.0.2.100", "/cached"), new Date(NOON.getTime() + TRIAL.cacheSeconds * 1000)))).toBe("ok");
    expect(await hostCount("target.example")).toBe(2);
  });
});
