import { sql } from "kysely";
import type { DbHandle } from "../../src/db/client.js";

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
