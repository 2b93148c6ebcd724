import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createCreditsService } from "../../src/services/credits/service.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

const NOW = new Date("2026-11-22T12:00:00.000Z");

describe("credit spends coalesced per event-loop turn", () => {
  let db: TestDb;
  const clock = new ManualClock(NOW);
  let n = 0;

  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    await db.close();
  });

  async function bundle(balance: number, opts: { status?: "settled" | "claimed"; expiresAt?: Date } = {}): Promise<string> {
    n += 1;
    const payment = await db.db
      .insertInto("payments")
      .values({
        authorization_key: `k${n}`,
        request_id: `r${n}`,
        route: "credits",
        network: "eip155:84532",
        amount_atomic: "500000",
        status: opts.status ?? "settled",
        tx_hash: `0x${n}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const credit = await db.db
      .insertInto("credits")
      .values({
        balance,
        initial_balance: 1000,
        paid_amount: "0.5",
        payment_id: payment.id,
        payment_network: "eip155:84532",
        expires_at: opts.expiresAt ?? new Date(NOW.getTime() + 86_400_000),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return credit.id;
  }
  const balanceOf = async (id: string) => (await db.db.selectFrom("credits").select("balance").where("id", "=", id).executeTakeFirstOrThrow()).balance;

  it("gives a bundle exactly as many calls as its balance, with the balances of one-by-one spends", async () => {
    const credits = createCreditsService({ db, clock });
    const id = await bundle(5);
    const spent = await Promise.all(Array.from({ length: 8 }, () => credits.spend(id)));
    expect(spent.filter(Boolean)).toHaveLength(5);
    // The first callers get the calls, as if they had come one after another.
    expect(spent.map((s) => s?.balance)).toEqual([4, 3, 2, 1, 0, undefined, undefined, undefined]);
    expect(await balanceOf(id)).toBe(0);
  });

  it("answers each call of a mixed turn for its own bundle", async () => {
    const credits = createCreditsService({ db, clock });
    const [a, b, expired, unsettled] = [
      await bundle(10),
      await bundle(1),
      await bundle(10, { expiresAt: new Date(NOW.getTime() - 1) }),
      await bundle(10, { status: "claimed" }),
    ];
    const unknown = "00000000-0000-4000-8000-000000000000";
    const calls = [a, b, expired, "not-a-uuid", a.toUpperCase(), unsettled, unknown, b];
    const spent = await Promise.all(calls.map((id) => credits.spend(id)));
    expect(spent.map((s) => s?.balance)).toEqual([9, 0, undefined, undefined, 8, undefined, undefined, undefined]);
    expect(spent[0]).toMatchObject({ paymentNetwork: "eip155:84532" });
    expect(spent[0]!.expiresAt).toBeInstanceOf(Date);
    expect([await balanceOf(a), await balanceOf(b), await balanceOf(expired), await balanceOf(unsettled)]).toEqual([8, 0, 10, 10]);
  });

  it("two services (two API processes) spending the same bundles in opposite orders spend exactly the balance", async () => {
    const [one, two] = [createCreditsService({ db, clock }), createCreditsService({ db, clock })];
    const ids = [await bundle(60), await bundle(60)];
    const spends = Array.from({ length: 50 }, (_, i) => [one.spend(ids[i % 2]!), two.spend(ids[(i + 1) % 2]!)]).flat();
    const more = Array.from({ length: 50 }, (_, i) => [one.spend(ids[(i + 1) % 2]!), two.spend(ids[i % 2]!)]).flat();
    const spent = await Promise.all([...spends, ...more]);
    expect(spent.filter(Boolean)).toHaveLength(120);
    for (const id of ids) {
      expect(await balanceOf(id)).toBe(0);
    }
  });
});
