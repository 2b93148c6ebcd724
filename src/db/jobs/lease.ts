import { sql, type Kysely, type RawBuilder, type Updateable } from "kysely";
import type { Database } from "../schema.js";
import { backoffDelay, type Backoff } from "./backoff.js";

/** The tables whose rows are leased jobs; each has lease_owner and lease_until. */
export type LeaseTableName = "catalog_sources" | "webhook_deliveries" | "host_checks" | "listings";

/** Where a table keeps its jobs: the key, its SQL type, and the column that says when a row is due. */
export interface JobTable {
  table: LeaseTableName;
  key: string;
  keyType: "bigint" | "text" | "uuid";
  due: string;
  /** Whether a lease ending exactly now is free ("<=") or still held ("<"); each table keeps its rule. */
  expired: "<=" | "<";
}

/** A JobTable whose columns are checked against the schema. */
export interface LeaseTable<T extends LeaseTableName> extends JobTable {
  table: T;
  key: keyof Database[T] & string;
  due: keyof Database[T] & string;
}

const ts = (at: Date) => sql<Date>`${at.toISOString()}::timestamptz`;
const col = (alias: string, c: string) => sql.ref(`${alias}.${c}`);

/** A row is claimable when it is due and nobody holds a live lease on it. */
const isClaimable = (t: JobTable, alias: string, now: Date): RawBuilder<boolean> =>
  sql<boolean>`${col(alias, t.due)} <= ${ts(now)} and (${col(alias, "lease_until")} is null or ${col(alias, "lease_until")} ${sql.raw(t.expired)} ${ts(now)})`;

/** How a claim picks its rows: the claim strategy (fairness, joins, order) as SQL pieces. */
export interface Pick {
  /** Alias of the table in the pick (default "p"). */
  alias?: string;
  join?: RawBuilder<unknown>;
  /** Conditions besides due and free. */
  where?: RawBuilder<boolean>[];
  orderBy: RawBuilder<unknown>;
  limit?: number;
  /** "no key update" lets foreign keys to the row (probes, deliveries) be written meanwhile. */
  lock: "update" | "no key update";
}

export interface Claim<T extends LeaseTableName> {
  owner: string;
  now: Date;
  leaseMs: number;
  pick: Pick;
  /** Alias of the updated table in `from`, `set` and `returning` (default "t"). */
  alias?: string;
  /** More columns the claim writes; `until` is the lease's end. */
  set?: (until: RawBuilder<Date>) => RawBuilder<unknown>[];
  /** A table the returning clause reads, and how it joins. */
  from?: { table: RawBuilder<unknown>; on: RawBuilder<boolean> };
  returning: RawBuilder<unknown>;
  _table?: T;
}

/**
 * Leases due rows to `owner` until `now + leaseMs`. Rows another transaction holds are skipped,
 * not waited for (`skip locked`), so concurrent owners split the due rows and never share one.
 */
export async function claim<R, T extends LeaseTableName>(db: Kysely<Database>, t: LeaseTable<T>, c: Claim<T>): Promise<R[]> {
  const a = c.alias ?? "t";
  const p = c.pick.alias ?? "p";
  const until = ts(new Date(c.now.getTime() + c.leaseMs));
  const where = [isClaimable(t, p, c.now), ...(c.pick.where ?? [])];
  const pick = sql`
    select ${col(p, t.key)} from ${sql.table(t.table)} as ${sql.id(p)} ${c.pick.join ?? sql``}
    where ${sql.join(where, sql` and `)}
    order by ${c.pick.orderBy} ${c.pick.limit === undefined ? sql`` : sql`limit ${c.pick.limit}`}
    for ${sql.raw(c.pick.lock)} of ${sql.id(p)} skip locked`;
  const sets = [sql`lease_owner = ${c.owner}`, sql`lease_until = ${until}`, ...(c.set?.(until) ?? [])];
  const { rows } = await sql<R>`
    update ${sql.table(t.table)} as ${sql.id(a)} set ${sql.join(sets)}
    ${c.from ? sql`from ${c.from.table} where ${c.from.on} and` : sql`where`} ${col(a, t.key)} in (${pick})
    returning ${c.returning}`.execute(db);
  return rows;
}

export interface Completion<T extends LeaseTableName> {
  owner: string;
  key: string | number;
  /** The row's next due time. */
  due: Date | string;
  set?: Updateable<Database[T]>;
  /** Further equality conditions the row must meet to be written. */
  where?: Partial<Record<keyof Database[T] & string, string>>;
}

/**
 * Ends `owner`'s lease on one row, writing its next due time and `set`. Only the lease holder
 * writes: an owner that lost its lease (it stalled past it) changes nothing and gets false.
 */
export async function complete<T extends LeaseTableName>(db: Kysely<Database>, t: LeaseTable<T>, c: Completion<T>): Promise<boolean> {
  // Kysely cannot type an update over a table chosen at run time; the columns are typed above.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const anyDb = db as unknown as Kysely<any>;
  let q = anyDb
    .updateTable(t.table as string)
    .set({ ...c.set, [t.due]: c.due, lease_owner: null, lease_until: null })
    .where(t.key as string, "=", c.key)
    .where("lease_owner", "=", c.owner);
  for (const [k, v] of Object.entries(c.where ?? {})) q = q.where(k, "=", v);
  const r = await q.executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * Records failure number `failures` of a leased row and releases it, due again after the
 * backoff. Returns whether this owner still held it, and the due time it wrote.
 */
export async function fail<T extends LeaseTableName>(
  db: Kysely<Database>,
  t: LeaseTable<T>,
  c: Omit<Completion<T>, "due"> & { now: Date; failures: number; backoff: Backoff; random: () => number },
): Promise<{ written: boolean; due: Date }> {
  const due = new Date(c.now.getTime() + backoffDelay(c.backoff, c.failures, c.random));
  const { owner, key, set, where } = c;
  return { written: await complete(db, t, { owner, key, set, where, due }), due };
}

/** Hands back rows claimed but not run (shutdown): due at `now`, free for any owner. */
export async function release(db: Kysely<Database>, t: JobTable, owner: string, keys: ReadonlyArray<string | number>, now: Date): Promise<void> {
  if (keys.length === 0) return;
  await sql`
    update ${sql.table(t.table)} set lease_owner = null, lease_until = null, ${sql.ref(t.due)} = ${ts(now)}
    where ${sql.ref(t.key)} = any(${keys}::${sql.raw(t.keyType)}[]) and lease_owner = ${owner}`.execute(db);
}

/**
 * Ends `owner`'s leases on many rows in one statement, each with its own due time. `with` adds
 * common table expressions to that statement (the endpoint record inserts its probes there).
 */
export async function completeMany(
  db: Kysely<Database>,
  t: JobTable,
  c: { owner: string; keys: ReadonlyArray<string | number>; due: readonly Date[]; with?: RawBuilder<unknown> },
): Promise<void> {
  await sql`
    ${c.with ? sql`with ${c.with}` : sql``}
    update ${sql.table(t.table)} as l
    set ${sql.ref(t.due)} = u.next, lease_owner = null, lease_until = null
    from unnest(${c.keys}::${sql.raw(t.keyType)}[], ${c.due.map((d) => d.toISOString())}::timestamptz[]) as u(key, next)
    where ${sql.ref(`l.${t.key}`)} = u.key and l.lease_owner = ${c.owner}`.execute(db);
}
