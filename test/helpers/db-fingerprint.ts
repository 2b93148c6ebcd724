import { sql, type Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";

/** Row count and content digest of every table in the public schema, by table name. */
export type DbFingerprint = Record<string, { rows: number; digest: string }>;

/**
 * What "the database did not change" means in a test: the same tables, each with the same
 * rows (an order-independent md5 over every row's text form). Meant for test-sized databases.
 */
export async function fingerprint(db: Kysely<Database>): Promise<DbFingerprint> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const out: DbFingerprint = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ rows: number; digest: string | null }>`
      select count(*)::int as rows, md5(string_agg(md5(t::text), '' order by md5(t::text))) as digest
      from ${sql.table(name)} as t`.execute(db);
    out[name] = { rows: rows[0]!.rows, digest: rows[0]!.digest ?? "" };
  }
  return out;
}
