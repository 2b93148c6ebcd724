import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/**
 * Names each provider (a payee) by the most common service name among its active listings,
 * ties broken alphabetically so every process picks the same name. One statement over the
 * catalog; rows whose name does not change are not written.
 */
export async function refreshProviderNames(db: Kysely<Database>, now: Date): Promise<void> {
  await sql`
    with counted as (
      select l.provider_id, s.name, count(*) as n
      from listings as l
      join services as s using (service_id)
      where l.is_active and l.provider_id is not null
      group by l.provider_id, s.name
    ),
    ranked as (
      select provider_id, name, row_number() over (partition by provider_id order by n desc, name asc) as rank
      from counted
    )
    update providers as p
    set name = r.name, updated_at = ${now}
    from ranked as r
    where r.rank = 1 and p.provider_id = r.provider_id and p.name is distinct from r.name`.execute(db);
}
