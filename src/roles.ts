import type { PaymentRail } from "./chain/payment-rail.js";
import type { Role } from "./config.js";
import type { AppContext } from "./context.js";
import { createApp } from "./http/app.js";
import { createAppGate } from "./http/payment/app-gate.js";
import { productRoutes } from "./http/routes/index.js";
import { listen } from "./http/serve.js";
import type { Lifecycle } from "./lib/lifecycle.js";
import { startAlerter } from "./workers/alerter.js";
import { startDatasetScheduler } from "./workers/dataset.js";
import { startFlagRecorder } from "./workers/delist-flags.js";
import { startIngester } from "./workers/ingester.js";
import { startPaymentReconciler } from "./workers/payments.js";
import { startProber } from "./workers/prober.js";
import { startVerdicts } from "./workers/verdicts.js";

export interface RoleDeps {
  ctx: AppContext;
  /** Present when this process runs the API or the demo fleet. */
  rail: PaymentRail | undefined;
  catalogUrls: string[];
  lifecycle: Lifecycle;
}

/** Each role starts its loops and registers how to stop them; main.ts only picks which. */
const STARTERS: Record<Role, (deps: RoleDeps) => Promise<void>> = {
  api: startApi,
  ingester: async ({ ctx, catalogUrls, lifecycle }) => {
    const ingester = startIngester(ctx, catalogUrls);
    lifecycle.add("ingester", () => ingester.stop());
  },
  prober: async ({ ctx, lifecycle }) => {
    const prober = startProber(ctx);
    const verdicts = startVerdicts(ctx);
    const flags = startFlagRecorder(ctx);
    lifecycle.add("prober", () => prober.stop());
    lifecycle.add("verdicts", () => verdicts.stop());
    lifecycle.add("delist flags", () => flags.stop());
  },
  alerter: async ({ ctx, lifecycle }) => {
    const alerter = startAlerter(ctx);
    lifecycle.add("alerter", () => alerter.stop());
  },
};

export const startRole = (role: Role, deps: RoleDeps) => STARTERS[role](deps);

async function startApi({ ctx, rail, lifecycle }: RoleDeps): Promise<void> {
  const { config, log } = ctx;
  if (!rail) throw new Error("the api role needs a payment rail");
  const gate = await createAppGate(ctx, rail, productRoutes);
  const app = createApp({ ctx, routes: productRoutes, gate });
  const reconciler = startPaymentReconciler(ctx, rail.chain);
  lifecycle.add("payment reconciler", () => reconciler.stop());
  // Dataset files live on this process's disk, where /dataset serves them.
  const datasets = startDatasetScheduler(ctx);
  lifecycle.add("dataset scheduler", () => datasets.stop());
  const server = await listen(app, config.host, config.port);
  lifecycle.add("http", () => server.close());
  ctx.services.warm().catch((err: unknown) => log.warn({ err }, "warming the catalog products failed; the first calls will build them"));
  log.info({ url: server.url, public: config.publicBaseUrl, payTo: rail.payTo, network: rail.network }, "x402 Lookout listening");
}
