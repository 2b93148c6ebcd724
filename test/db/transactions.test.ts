import { setTimeout as sleep } from "node:timers/promises";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import type { Database } from "../../src/db/schema.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

async function keys(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("app_state").select("key").orderBy("key").execute();
  return rows.map((r) => r.key);
}

const put = (db: Kysely<Database>, key: string) => db.insertInto("app_state").values({ key, value: "true" }).execute();

describe("transactions (both dialects)", () => {
  let h: TestDb;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.db.deleteFrom("app_state").execute();
  });

  it("keeps a concurrent write out of a transaction that rolls back", async () => {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const trx = h.db.transaction().execute(async (t) => {
      await put(t, "in-trx");
      entered();
      await sleep(50);
      throw new Error("roll back");
    });
    await inside;
    const outside = put(h.db, "outside");

    await expect(trx).rejects.toThrow("roll back");
    await outside;
    expect(await keys(h.db)).toEqual(["outside"]);
  });

  it("commits, rolls back to savepoints, and reports affected rows", async () => {
    const t = await h.db.startTransaction().execute();
    await put(t, "a");
    const sp = await t.savepoint("before_b").execute();
    await put(sp, "b");
    await sp.rollbackToSavepoint("before_b").execute();
    await put(t, "c");
    await t.commit().execute();
    expect(await keys(h.db)).toEqual(["a", "c"]);

    const updated = await h.db.updateTable("app_state").set({ value: "false" }).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await h.db.deleteFrom("app_state").where("key", "=", "a").executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
  });

  it("stays usable after a failed statement and a failed transaction", async () => {
    await expect(sql`select * from no_such_table`.execute(h.db)).rejects.toThrow(/no_such_table/);
    await expect(
      h.db.transaction().execute(async (t) => {
        await put(t, "dup");
        await put(t, "dup");
      }),
    ).rejects.toThrow(/duplicate key/);
    await put(h.db, "after");
    expect(await keys(h.db)).toEqual(["after"]);
  });

  it("runs several statements in one parameterless query, as migrations do", async () => {
    await sql.raw("insert into app_state values ('x', 'true'); insert into app_state values ('y', 'true')").execute(h.db);
    expect(await keys(h.db)).toEqual(["x", "y"]);
  });

  it("refuses to stream on either dialect", async () => {
    const stream = h.db.selectFrom("app_state").select("key").stream(10);
    await expect(stream.next()).rejects.toThrow(/cursor/);
  });
});

describe("PGlite exclusive connection", () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await openDatabase({ dataDir: "memory://" });
    await sql`create table app_state (key text primary key, value jsonb not null, updated_at timestamptz not null default now())`.execute(h.db);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.db.deleteFrom("app_state").execute();
  });

  it("makes queries outside a transaction wait until it ends", async () => {
    const events: string[] = [];
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const trx = h.db.transaction().execute(async (t) => {
      events.push("trx begins");
      await put(t, "a");
      entered();
      await sleep(50);
      events.push("trx commits");
    });
    await inside;
    const reader = keys(h.db).then((k) => {
      events.push("outside reads");
      return k;
    });

    await trx;
    // It ran after the commit, so it saw the committed row and never an uncommitted one.
    expect(await reader).toEqual(["a"]);
    expect(events).toEqual(["trx begins", "trx commits", "outside reads"]);
  });

  it("serves waiting queries in the order they asked", async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 20 }, (_, i) => sql`select ${i}::int as i`.execute(h.db).then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("rejects queries after close", async () => {
    const other = await openDatabase({ dataDir: "memory://" });
    await other.ping();
    await other.close();
    await other.close();
    await expect(other.ping()).rejects.toThrow();
  });
});
