import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCKS, runExclusive } from "../../src/db/jobs/exclusive.js";
import { claim, complete, fail, release, type LeaseTable } from "../../src/db/jobs/lease.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

// host_checks is the smallest leased table: a text key and a due column.
const HOSTS: LeaseTable<"host_checks"> = { table: "host_checks", key: "host", keyType: "text", due: "next_check_at", expired: "<" };
const T0 = new Date("2026-11-20T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

let h: TestDb;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.db.deleteFrom("host_checks").execute();
  const hosts = Array.from({ length: 40 }, (_, i) => ({ host: `h${String(i).padStart(2, "0")}.test`, next_check_at: T0, updated_at: T0 }));
  await h.db.insertInto("host_checks").values(hosts).execute();
});

const take = (owner: string, now = T0, limit = 25, leaseMs = 60_000) =>
  claim<{ host: string }, "host_checks">(h.db, HOSTS, {
    owner,
    now,
    leaseMs,
    pick: { orderBy: sql`p.next_check_at, p.host`, limit, lock: "no key update" },
    returning: sql`t.host`,
  }).then((rows) => rows.map((r) => r.host));
const row = (host: string) =>
  h.db.selectFrom("host_checks").select(["lease_owner", "lease_until", "next_check_at"]).where("host", "=", host).executeTakeFirstOrThrow();

describe("the lease protocol", () => {
  it("gives two owners claiming at once disjoint rows, each held by its claimer", async () => {
    const [a, b] = await Promise.all([take("a"), take("b")]);
    expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    for (const host of a) expect((await row(host)).lease_owner).toBe("a");
    for (const host of b) expect((await row(host)).lease_owner).toBe("b");
  });

  it("lets only the lease holder complete a row", async () => {
    const [host] = await take("a", T0, 1);
    const before = await row(host!);
    expect(await complete(h.db, HOSTS, { owner: "b", key: host!, due: at(3_600_000), set: { last_error: "not mine" } })).toBe(false);
    expect(await row(host!)).toEqual(before);
    expect(await complete(h.db, HOSTS, { owner: "a", key: host!, due: at(3_600_000), set: { last_error: null } })).toBe(true);
    expect(await row(host!)).toEqual({ lease_owner: null, lease_until: null, next_check_at: at(3_600_000) });
  });

  it("backs a failed row off by the backoff's delay, scaled within its jitter, and releases it", async () => {
    const backoff = { delayMs: (n: number) => n * 10_000, jitter: 0.2 };
    const hosts = await take("a", T0, 3);
    const draws = [0, 0.5, 0.999999];
    for (const [i, host] of hosts.entries()) {
      const r = await fail(h.db, HOSTS, { owner: "a", key: host, now: T0, failures: 2, backoff, random: () => draws[i]! });
      expect(r.written).toBe(true);
      const due = (await row(host)).next_check_at.getTime() - T0.getTime();
      expect(due).toBe(r.due.getTime() - T0.getTime());
      expect(due).toBeGreaterThanOrEqual(16_000);
      expect(due).toBeLessThanOrEqual(24_000);
      expect((await row(host)).lease_owner).toBeNull();
    }
    expect((await row(hosts[1]!)).next_check_at).toEqual(at(20_000));
  });

  it("makes released rows due now and free for any owner", async () => {
    const mine = await take("a", T0, 5);
    await release(h.db, HOSTS, "a", mine, at(1_000));
    for (const host of mine) expect(await row(host)).toEqual({ lease_owner: null, lease_until: null, next_check_at: at(1_000) });
    expect((await take("b", at(1_000), 40)).filter((x) => mine.includes(x))).toEqual(mine);
  });

  it("hands a row whose lease expired to another owner, and the first owner's write is refused", async () => {
    const mine = await take("a", T0, 40, 1_000);
    expect(await take("b", at(999), 40)).toEqual([]);
    const taken = await take("b", at(1_001), 40);
    expect(taken.sort()).toEqual([...mine].sort());
    expect(await complete(h.db, HOSTS, { owner: "a", key: mine[0]!, due: at(5_000) })).toBe(false);
    expect((await row(mine[0]!)).lease_owner).toBe("b");
  });
});

describe("runExclusive", () => {
  it.skipIf(process.env.TEST_DATABASE_URL === undefined)("runs one of two concurrent runs on PostgreSQL; the other skips", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = runExclusive(h, LOCKS.verdictRecompute, async () => {
      entered();
      await gate;
      return "first";
    });
    await inside;
    const second = await runExclusive(h, LOCKS.verdictRecompute, async () => "second");
    open();
    expect(second).toEqual({ ran: false });
    expect(await first).toEqual({ ran: true, value: "first" });
    expect(await runExclusive(h, LOCKS.verdictRecompute, async () => "after")).toEqual({ ran: true, value: "after" });
  });

  it("just runs on PGlite, in a transaction when asked", async () => {
    if (h.dialect !== "pglite") return;
    expect(await runExclusive(h, LOCKS.verdictRecompute, async () => 1)).toEqual({ ran: true, value: 1 });
    const r = await runExclusive(h, LOCKS.alerterEvaluation, async (db) => db.isTransaction, { atomic: true });
    expect(r).toEqual({ ran: true, value: true });
  });
});
