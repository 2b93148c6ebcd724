import type { Registry } from "prom-client";
import { SNAPSHOT_JWS } from "@x402-lookout/contracts/snapshot/limits";
import type { DbHandle } from "../db/client.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/log.js";
import { createAlternativesService } from "./alternatives/service.js";
import { createBlacklistService } from "./blacklist/service.js";
import { createCatalogService } from "./catalog/service.js";
import { createCertificatesService } from "./certificates/service.js";
import { createCreditsService } from "./credits/service.js";
import { createDatasetService } from "./dataset/service.js";
import { createDelistService } from "./delist/service.js";
import { createDeliveryDocuments } from "./delivery/document.js";
import { JWKS_PATH } from "./certificates/links.js";
import { DELIVERY_CHECK_JWS } from "@x402-lookout/contracts/delivery/delivery-check";
import { createEndpointHistoryService } from "./endpoint-history/service.js";
import { createExplorerService } from "./explorer/service.js";
import { createPaymentsService } from "./payments/service.js";
import { createProbesService } from "./probes/service.js";
import { createReportsService } from "./reports/service.js";
import { createLiveProber } from "./reports/live-probe.js";
import { createOverviewService } from "./overview/service.js";
import { createOutcomes } from "./outcomes/service.js";
import { createVerdictsService } from "./evidence/service.js";
import { createTrialService } from "./trial/service.js";
import { createVerdictFeedService } from "./verdict-feed/service.js";
import { createVerdictSigningService } from "./verdict-signing/service.js";
import { createWatchService } from "./watch/service.js";
import { createWhatsNewService } from "./whats-new/service.js";

/** Exactly the config values the services read; main.ts passes its Config, which has them all. */
export interface ServicesConfig {
  allowPrivateTargets: boolean;
  /** Live probes of URLs a customer names may reach loopback and private addresses (ALLOW_PRIVATE_LIVE_PROBES). */
  allowPrivateLiveProbes: boolean;
  allowPrivateWebhooks: boolean;
  /** Seals watch secrets at rest (decision 0025). */
  watchSecretKey: Buffer | undefined;
  /** Seals the signing keys at rest (decision 0031); absent: kept in clear, with a warning at start. */
  signingSecretKey?: Buffer | undefined;
  publicBaseUrl: string;
  dataDir: string;
  datasetMinEvidenceHours: number;
  maxEntries: number;
  probeIntervalSeconds: number;
  /** PROBE_VANTAGE and PROBE_SOURCE_ADDRESS (decision 0048); absent: 'default', the system's address. */
  probeVantage?: string;
  probeSourceAddress?: string | undefined;
  reportCacheRows: number;
}

/** What every service is built from; nothing else reaches them. */
export interface ServicesDeps {
  db: DbHandle;
  clock: Clock;
  log: Logger;
  /** Where the background services (prober, ingester, alerter) register their series. */
  metrics: Registry;
  config: ServicesConfig;
}

/**
 * The one typed bag of business services (the only construction site): routes, pages, the
 * payment gate, the CLI and the job runtime's tasks call `services.x.y(...)` with their own values only.
 */
export function createServices({ db, clock, log, metrics, config }: ServicesDeps) {
  const live = createLiveProber(db.db, { allowPrivate: config.allowPrivateLiveProbes, publicBaseUrl: config.publicBaseUrl });
  const signing = createVerdictSigningService({ db, clock, issuer: config.publicBaseUrl, sealKey: config.signingSecretKey });
  const reports = createReportsService({ db, clock, live, sign: signing.verdict, cacheRows: config.reportCacheRows, publicBaseUrl: config.publicBaseUrl });
  const alternatives = createAlternativesService({ db });
  const blacklist = createBlacklistService({ db, maxEntries: config.maxEntries });
  const whatsNew = createWhatsNewService({ db, clock });
  return {
    /** Time as the services see it: handlers take "now" from here, never from a clock of their own. */
    now: () => clock.now(),
    alternatives,
    blacklist,
    catalog: createCatalogService({ db, clock, metrics }),
    certificates: createCertificatesService({ db, clock, publicBaseUrl: config.publicBaseUrl, sealKey: config.signingSecretKey }),
    credits: createCreditsService({ db, clock }),
    dataset: createDatasetService({
      db,
      clock,
      log,
      dataDir: config.dataDir,
      publicBaseUrl: config.publicBaseUrl,
      minEvidenceHours: config.datasetMinEvidenceHours,
    }),
    delist: createDelistService({ db, clock }),
    /** The paid checker's checks as signed evidence documents (decision 0051). */
    deliveryChecks: createDeliveryDocuments({ db: db.db, clock, sign: signing.jws(DELIVERY_CHECK_JWS.typ), jwksUrl: `${config.publicBaseUrl}${JWKS_PATH}` }),
    /** One endpoint's page and badges: its verdict and 7 days of hourly aggregates (issue 26). */
    endpointHistory: createEndpointHistoryService({ db, clock, publicBaseUrl: config.publicBaseUrl }),
    /** The public explorer's endpoint list, provider and service pages (issue 26). */
    explorer: createExplorerService({ db, clock }),
    payments: createPaymentsService(db.db, clock),
    /** The landing page's live figures, read at most every 15 s. */
    overview: createOverviewService({ db, clock }),
    /** Payers' signed reports of what a paid call delivered, proven by their settlement (decision 0052). */
    outcomes: createOutcomes({ db: db.db, clock, find: reports.find }),
    probes: createProbesService({ db, clock, log, metrics, config }),
    reports,
    verdicts: createVerdictsService({ db, clock }),
    /** The offline guard's signed snapshot and deltas, with the verdicts' key. */
    verdictFeed: createVerdictFeedService({ db, clock, sign: signing.jws(SNAPSHOT_JWS.typ), issuer: config.publicBaseUrl }),
    trial: createTrialService({ db, clock, reports }),
    watch: createWatchService({ db, clock, metrics, rules: { allowPrivate: config.allowPrivateWebhooks }, secretKey: config.watchSecretKey }),
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

export * from "./exports.js";
