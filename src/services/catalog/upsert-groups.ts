import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ParsedListing } from "./types.js";

/**
 * Upserts the services and providers that a batch of listings references, skipping the ones
 * this poll already wrote (`done` is the poll's memory), so a poll writes each group once.
 * Rows go sorted by key so concurrent ingesters lock in one order.
 */
export async function upsertGroups(db: Kysely<Database>, batch: readonly ParsedListing[], now: Date, done: Set<string>): Promise<void> {
  const services = new Map<string, { service_id: string; name: string; origin: string; first_seen_at: Date; last_seen_at: Date; updated_at: Date }>();
  const providers = new Map<string, { provider_id: string; network: string; pay_to: string; first_seen_at: Date; updated_at: Date }>();
  for (const l of batch) {
    const s = `s:${l.serviceId}`;
    if (!done.has(s)) {
      done.add(s);
      services.set(l.serviceId, { service_id: l.serviceId, name: l.serviceName, origin: l.origin, first_seen_at: now, last_seen_at: now, updated_at: now });
    }
    const p = `p:${l.provider.id}`;
    if (!done.has(p)) {
      done.add(p);
      providers.set(l.provider.id, { provider_id: l.provider.id, network: l.provider.network, pay_to: l.provider.payTo, first_seen_at: now, updated_at: now });
    }
  }
  const byKey = <T>(m: Map<string, T>): T[] => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
  if (services.size > 0) {
    await db
      .insertInto("services")
      .values(byKey(services))
      .onConflict((oc) =>
        oc.column("service_id").doUpdateSet({
          name: (eb) => eb.ref("excluded.name"),
          origin: sql`coalesce(services.origin, excluded.origin)`,
          last_seen_at: sql`greatest(services.last_seen_at, excluded.last_seen_at)`,
          updated_at: (eb) => eb.ref("excluded.updated_at"),
        }),
      )
      .execute();
  }
  // A payee's row never changes; any conflict (id or network+payee) means it exists.
  if (providers.size > 0)
    await db
      .insertInto("providers")
      .values(byKey(providers))
      .onConflict((oc) => oc.doNothing())
      .execute();
}
