import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, testDatabaseUrl, type TestDb } from "../helpers/db.js";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb({ poolSize: 1 });
});
afterAll(() => db?.close());

describe("the handle's prepared statements", () => {
  it("answers like an ordinary query, with the same type parsing", async () => {
    const q = (n: number) => sql<{ n: number; at: Date }>`select ${n}::int as n, '2026-11-22T00:00:00Z'::timestamptz as at`.compile(db.db);
    expect(await db.prepared.execute("probe", q(1))).toEqual([{ n: 1, at: new Date("2026-11-22T00:00:00Z") }]);
    expect(await db.prepared.execute("probe", q(2))).toEqual([{ n: 2, at: new Date("2026-11-22T00:00:00Z") }]);
  });

  it.runIf(Boolean(testDatabaseUrl))("is planned once per connection on PostgreSQL, one statement per distinct text", async () => {
    await db.prepared.execute("twice", sql`select 1 as one`.compile(db.db));
    await db.prepared.execute("twice", sql`select 1 as one`.compile(db.db));
    await db.prepared.execute("twice", sql`select 2 as two`.compile(db.db));
    const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements where name like 'twice:%'`.execute(db.db);
    expect(rows).toHaveLength(2);
  });
});
