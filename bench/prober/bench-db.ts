import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { openDatabase, type DbHandle } from "../../src/db/client.js";
import { migrate } from "../../src/db/migrate.js";

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * In-memory PGlite, or with BENCH_DATABASE_URL a fresh database on that PostgreSQL server,
 * dropped again by close().
 */
export async function openBenchDb(serverUrl: string | undefined): Promise<DbHandle & { label: string }> {
  if (!serverUrl) {
    // A data folder on disk, as `npm start` uses by default (DATA_DIR=./data), not memory://:
    // an in-memory PGlite keeps every table inside the process.
    const dir = mkdtempSync(join(tmpdir(), "lookout-bench-"));
    const h = await openDatabase({ dataDir: dir });
    await migrate(h.db);
    return {
      ...h,
      label: `PGlite (data folder ${dir})`,
      close: async () => {
        await h.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `lookout_bench_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, `create database ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const h = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
  await migrate(h.db);
  const version = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(h.db);
  return {
    ...h,
    label: `PostgreSQL ${version.rows[0]!.v}`,
    close: async () => {
      await h.close();
      await admin(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** A service per fleet host and `perHost` listings on each, inserted host by host. */
export async function seedFleet(h: DbHandle, port: number, hosts: number, perHost: number, servicePrefix = "svc-"): Promise<void> {
  const host = sql`'127.0.' || (1 + (g / ${perHost}) / 250) || '.' || (1 + (g / ${perHost}) % 250) || ':' || ${String(port)}::text`;
  await sql`
    insert into services (service_id, name, first_seen_at, last_seen_at)
    select ${servicePrefix}::text || s, 'Fleet service ' || s, now(), now() from generate_series(0, ${hosts - 1}) as s`.execute(h.db);
  await sql`
    insert into listings (url, url_normalized, method, service_id, host, network, asset, source_url, first_seen_at, last_seen_at)
    select 'http://' || ${host} || '/e/' || g, 'http://' || ${host} || '/e/' || g, 'POST', ${servicePrefix}::text || (g / ${perHost}),
           ${host}, 'eip155:84532', '0x036CbD53842c5426634e7929541eC2318f3dCF7e', 'http://bench.test/discovery', now(), now()
    from generate_series(0, ${hosts * perHost - 1}) as g`.execute(h.db);
}
