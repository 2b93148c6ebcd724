import type { Config } from "../config.js";
import type { DbHandle } from "../db/client.js";
import type { Clock } from "../lib/clock.js";
import { createAlternativesService } from "./alternatives/alternatives.js";
import { createBlacklistService } from "./blacklist/blacklist.js";
import { createCreditsService } from "./credits/credits-service.js";
import { createPaymentLedger } from "./payments/ledger.js";
import { createReportsService } from "./reports/index.js";
import { createLiveProber } from "./reports/live-probe.js";
import { createTrialService } from "./trial/index.js";
import { createWhatsNewService } from "./whats-new/whats-new.js";

/** Every business service, built once from the context's database, clock and config. */
export function createServices(db: DbHandle, clock: Clock, config: Pick<Config, "allowPrivateTargets" | "publicBaseUrl" | "maxEntries">) {
  const live = createLiveProber(db.db, { allowPrivate: config.allowPrivateTargets, publicBaseUrl: config.publicBaseUrl });
  const reports = createReportsService(db.db, clock, live);
  const alternatives = createAlternativesService(db.db);
  const blacklist = createBlacklistService(db.db, config.maxEntries);
  const whatsNew = createWhatsNewService(db.db, clock);
  return {
    alternatives,
    blacklist,
    credits: createCreditsService(db.db, clock),
    payments: createPaymentLedger(db.db, () => clock.now()),
    reports,
    trial: createTrialService(db.db, clock, reports),
    whatsNew,
    /**
     * Builds what the catalog products keep per verdict generation (docs/catalog-products.md),
     * so the first calls after start do not wait for it.
     */
    async warm() {
      await Promise.all([alternatives.warm(), blacklist.warm(), whatsNew.warm()]);
    },
    /** Releases outbound connection pools. */
    close: () => live.close(),
  };
}

export type Services = ReturnType<typeof createServices>;
