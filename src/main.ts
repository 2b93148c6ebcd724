import { Registry, collectDefaultMetrics } from "prom-client";
import { banner, type BannerInput } from "./banner.js";
import { CANARY_ACCOUNT_INDEX, DEMO_MERCHANT_ACCOUNT_INDEX, anvilAccount } from "./chain/devnet-accounts.js";
import { startPaymentRail, type PaymentRail } from "./chain/payment-rail.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { createAppContext, Readiness, type AppContext } from "./context.js";
import { openDatabase } from "./db/client.js";
import { DataDirLocked } from "./db/data-dir-lock.js";
import { migrate } from "./db/migrate.js";
import { startDemoFleet, type DemoFleet } from "./demo/index.js";
import { createAdminApp } from "./http/operations.js";
import { listen, portProblem } from "./http/serve.js";
import { registerStateGauges } from "./http/state-gauges.js";
import { systemClock } from "./lib/clock.js";
import { Lifecycle } from "./lib/lifecycle.js";
import { createLogger, prettyLogs } from "./lib/log.js";
import { startRole } from "./roles.js";
import { demoSourceEntry, SigningKeyUnavailable } from "./services/index.js";

/** A start aborted by a signal exits within this, whatever is still stopping (anvil dies with the process). */
const START_ABORT_EXIT_MS = 800;

/** Composition root: config -> database -> services -> roles. */
async function main(config: Config): Promise<void> {
  // Before the database, the devnet and the demo fleet: a taken port is one plain line, no stack.
  const problem = await firstPortProblem(config);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const log = createLogger(config.logLevel, config.logFormat);
  const lifecycle = new Lifecycle(log);
  // Aborted by a signal before the banner: every step after an await checks it, so nothing more starts.
  const start = new AbortController();
  let started = false;
  let stopping = false;
  const stop = (reason: string, code: number, withinMs?: number) => {
    if (stopping) return;
    stopping = true;
    if (withinMs !== undefined) setTimeout(() => process.exit(code), withinMs).unref();
    void lifecycle.shutdown(reason).finally(() => process.exit(code));
  };
  // Handlers stay registered: the devnet treats a registered handler as "the app owns shutdown".
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(130); // a second signal: stop waiting
      if (started) return stop(signal, 0);
      // Ctrl-C while starting: what started so far is stopped, the rest never starts, within a second.
      start.abort(new Error(`${signal} during start`));
      stop(`${signal} during start`, 0, START_ABORT_EXIT_MS);
    });
  }
  const step = () => start.signal.throwIfAborted();

  try {
    const readiness = new Readiness();
    readiness.expectRoles(config.roles);
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    lifecycle.add("database", () => db.close());
    step();
    const { applied } = await migrate(db.db);
    step();
    readiness.markMigrated(systemClock.now());
    log.info({ dialect: db.dialect, applied }, "database ready");

    const metrics = new Registry();
    collectDefaultMetrics({ register: metrics });
    const ctx = createAppContext({ config, db, clock: systemClock, log, metrics, readiness });
    lifecycle.add("services", () => ctx.services.close());
    registerStateGauges(ctx);
    await prepareSigningKeys(ctx);
    step();

    // The payment rail serves the API and the demo merchants; a worker-only process needs neither.
    const rail = config.roles.includes("api") || config.demoMode ? await startPaymentRail(config, log) : undefined;
    if (rail?.devnet) lifecycle.add("devnet", () => rail.devnet!.stop());
    step();
    const fleet = config.catalogUrls ? undefined : await startDemo(ctx, rail!, lifecycle);
    step();
    // The demo's catalog is one source whatever ports it binds (docs/catalog.md, "Source identity").
    const catalogUrls = config.catalogUrls ?? [demoSourceEntry(fleet!.catalogUrl)];

    let url: string | undefined;
    for (const role of config.roles) {
      url = (await startRole(role, { ctx, rail, catalogUrls, lifecycle })) ?? url;
      step();
      readiness.markStarted(role);
    }
    if (config.admin) {
      const admin = await listen(createAdminApp(ctx), config.admin.host, config.admin.port);
      lifecycle.add("admin http", () => admin.close());
      step();
      log.info({ url: admin.url }, "admin listener: /metrics, /healthz, /readyz");
    }
    // Demo mode's paying agents, once the service answers their reports (decision 0052); loaded
    // only here, so a production process never loads the agent side (the client package).
    if (fleet && url && rail?.devnet) {
      const { startDemoTraffic } = await import("./demo/traffic/agent.js");
      const traffic = startDemoTraffic({
        endpoints: fleet.endpoints,
        wallets: rail.devnet.traffic.map((w) => w.privateKey),
        network: rail.network,
        serviceUrl: url,
        log,
      });
      lifecycle.add("demo traffic", () => traffic.stop());
    }
    started = true;
    if (url) showBanner(ctx, { url, demo: fleet && demoShown(fleet) });
  } catch (err) {
    if (start.signal.aborted) return; // a failure after the abort is the abort's own doing
    // The operator's mistake, not a bug: the line says what to do, a stack would bury it.
    if (err instanceof DataDirLocked) log.fatal({ folder: err.folder }, err.message);
    else if (err instanceof SigningKeyUnavailable) log.fatal(err.message);
    else log.fatal({ err }, "start-up failed");
    stop("start-up failed", 1);
  }
}

/**
 * Decision 0031: with SIGNING_SECRET_KEY, keys still kept in clear are sealed now and the active
 * key must open (else the start stops, one line); without it the key stays in clear, said once.
 */
async function prepareSigningKeys(ctx: AppContext): Promise<void> {
  const keys = await ctx.services.certificates.keys.prepare();
  if (keys.sealedNow > 0) ctx.log.info({ sealed: keys.sealedNow }, "signing keys sealed at rest under SIGNING_SECRET_KEY");
  if (keys.clear) ctx.log.warn({ kid: keys.kid }, "the signing key is stored in clear: set SIGNING_SECRET_KEY to seal it at rest (docs/operations.md)");
}

/** Demo mode: the bundled fleet of x402 merchants on loopback, paid on the same devnet. */
async function startDemo(ctx: AppContext, rail: PaymentRail, lifecycle: Lifecycle): Promise<DemoFleet> {
  const fleet = await startDemoFleet({
    log: ctx.log,
    facilitator: rail.facilitator,
    network: rail.network,
    asset: rail.asset,
    // Merchants get their own account so demo payments never land in the service's earnings; it
    // is funded (indexes 11..20 are the fleet's other providers), so it can buy its certificate.
    payTo: anvilAccount(DEMO_MERCHANT_ACCOUNT_INDEX).address,
  });
  lifecycle.add("demo fleet", () => fleet.stop());
  ctx.log.info({ catalog: fleet.catalogUrl, endpoints: fleet.endpoints.length }, "demo fleet up");
  return fleet;
}

async function firstPortProblem(config: Config): Promise<string | undefined> {
  if (config.roles.includes("api")) {
    const api = await portProblem(config.host, config.port);
    if (api) return api;
  }
  return config.admin ? portProblem(config.admin.host, config.admin.port, { port: "ADMIN_PORT", host: "ADMIN_HOST" }) : undefined;
}

/** The demo's first URLs to try, one of each kind the banner names (docs/demo-fleet.md has them all). */
function demoShown(fleet: DemoFleet): BannerInput["demo"] {
  const first = (kind: string) => fleet.endpoints.find((e) => e.kind === kind)?.url;
  return { payerKey: anvilAccount(1).privateKey, healthy: first("healthy"), decoy: first("decoy"), dead: first("dead_5xx") };
}

/** Demo mode pays the demo fleet from the devnet's canary account (22, funded at start) unless a key is set (decision 0051). */
function withDemoCanary(c: Config): Config {
  if (!c.demoMode || c.canary.privateKey) return c;
  return { ...c, canary: { ...c.canary, privateKey: anvilAccount(CANARY_ACCOUNT_INDEX).privateKey } };
}

function showBanner(ctx: AppContext, input: BannerInput): void {
  const { text, fields } = banner(input);
  if (prettyLogs(ctx.config.logFormat)) process.stdout.write(text);
  else ctx.log.info(fields, "x402 Lookout ready to try");
}

let config: Config;
try {
  config = withDemoCanary(loadConfig());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  for (const line of err.problems) console.error(line);
  process.exit(1);
}
void main(config);
