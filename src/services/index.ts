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

/** The config values the services read; main.ts passes its Config, which has them all. */
export interface ServicesConfig {
  allowPrivateTargets: boolean;
  publicBaseUrl: string;
  maxEntries: number;
  reportCacheRows: number;
}

/** Every business service, built once from the context's database, clock and config. */
export function createServices(db: DbHandle, clock: Clock, config: ServicesConfig) {
  const live = createLiveProber(db.db, { allowPrivate: config.allowPrivateTargets, publicBaseUrl: config.publicBaseUrl });
  const reports = createReportsService(db, clock, live, { cacheRows: config.reportCacheRows });
  const alternatives = createAlternativesService(db.db);
  const blacklist = createBlacklistService(db.db, config.maxEntries);
  const whatsNew = createWhatsNewService(db.db, clock);
  return {
    alternatives,
    blacklist,
    credits: createCreditsService(db.db, clock, db.dialect),
    payments: createPaymentLedger(db.db, () => clock.now()),
    reports,
    trial: createTrialService(db.db, clock, reports),
    whatsNew,
    /**
     * Builds what the catalog products keep per verdict generation (docs/catalog-products.md)
     * and reads the catalog's report rows into memory, so the first calls after start do not
     * wait for them.
     */
    async warm() {
      // A report-row cache that cannot hear its feed yet stays off and keeps retrying; nothing to warm.
      await Promise.all([alternatives.warm(), blacklist.warm(), whatsNew.warm(), reports.find.cache.warm().catch(() => undefined)]);
    },
    /** Releases outbound connection pools. */
    close: () => live.close(),
  };
}

export type Services = ReturnType<typeof createServices>;
