import type { DbHandle } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { certificatesOf } from "./certificates.js";
import { flagsOf } from "./flags.js";
import { hourlyOf } from "./hourly.js";
import { identityOf } from "./identity.js";
import { quotesOf } from "./quotes.js";
import type { EndpointHistory } from "./types.js";
import { vantagesOf } from "../reports/forensics-vantages.js";
import { forensicsDelivery } from "../reports/delivery-view.js";
import { settlementsView } from "../reports/settlements-view.js";

export interface EndpointHistoryDeps {
  db: Pick<DbHandle, "db">;
  clock: Clock;
  /** Where the certificates' links point. */
  publicBaseUrl: string;
}

/**
 * One endpoint's page data (issue 26): its verdict, 7 days of hourly aggregates, and its quote,
 * flag and certificate records. Aggregates only (decision 0024): no probe row leaves here.
 */
export function createEndpointHistoryService({ db: { db }, clock, publicBaseUrl }: EndpointHistoryDeps) {
  return {
    /** undefined for an id no listing has. */
    async get(id: number): Promise<EndpointHistory | undefined> {
      const now = clock.now();
      const who = await identityOf(db, id);
      if (!who) return undefined;
      const [hours, quotes, flags, certificates, vantages, delivery] = await Promise.all([
        hourlyOf(db, id, now),
        quotesOf(db, id),
        flagsOf(db, id, now),
        certificatesOf({ db, clock, publicBaseUrl }, id),
        vantagesOf(db, id, now),
        db.selectFrom("signal_snapshots").select(["delivery", "settlements"]).where("listing_id", "=", id).executeTakeFirst(),
      ]);
      // The paid checker's checks and payers' reports, as forensics shows them (decisions 0051, 0052).
      const deliveries = await forensicsDelivery(db, { id, delivery: delivery?.delivery }, publicBaseUrl);
      // What the chain shows was paid to it (decision 0052).
      const settlements = settlementsView(delivery ?? null, now);
      return { ...who, ...hours, quotes, flags, certificates, vantages, deliveries, settlements, observedAt: now };
    },
  };
}

export type EndpointHistoryService = ReturnType<typeof createEndpointHistoryService>;
