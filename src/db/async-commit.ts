import { sql, type RawBuilder } from "kysely";
import type { DbDialect } from "./client.js";

/**
 * A CTE that makes the statement's own (implicit) transaction commit without waiting for the
 * WAL flush: PostgreSQL's synchronous_commit = off, for that transaction only. Reference it
 * from the statement (`from async_commit` or `(select 1 from async_commit)`) so it runs.
 *
 * Only for writes whose loss in a database crash costs no payer anything: trial counters and
 * caches, and credit spends (a lost decrement gives the holder a call back; it never charges
 * twice). A crash may lose the last few hundred milliseconds of such commits; it can neither
 * corrupt nor reorder them. Payments, refunds and everything else commit synchronously.
 * Decision record: docs/decisions/0008-async-commit-for-hot-path-writes.md.
 */
export const asyncCommitCte: RawBuilder<unknown> = sql`async_commit as (select set_config('synchronous_commit', 'off', true) as setting)`;

/** The same CTE, name and column, leaving synchronous_commit alone. */
const syncCommitCte: RawBuilder<unknown> = sql`async_commit as (select 'on'::text as setting)`;

/**
 * asyncCommitCte where only a database crash can lose the commit. Embedded PGlite has no WAL
 * writer: an async commit stays in memory until a later synchronous one, and a kill of the
 * process loses it, so there the statement commits synchronously (decision 0008).
 */
export const hotPathCommitCte = (dialect: DbDialect): RawBuilder<unknown> => (dialect === "pglite" ? syncCommitCte : asyncCommitCte);
