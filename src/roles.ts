import type { Role } from "./config.js";
import { createApp } from "./http/app.js";
import { createAppGate } from "./http/payment/app-gate.js";
import { productRoutes } from "./http/routes/index.js";
import { listen } from "./http/serve.js";
import type { Lifecycle } from "./lib/lifecycle.js";
import { startSchedules, type ScheduleDeps } from "./workers/schedules.js";

export interface RoleDeps extends ScheduleDeps {
  lifecycle: Lifecycle;
}

/** Starts the role's entries of the schedule list (src/workers/schedules.ts) and registers their stops. */
function startTasks(role: Role, deps: RoleDeps): void {
  for (const { name, task } of startSchedules(role, deps)) deps.lifecycle.add(name, () => task.stop());
}

/** Each role starts its tasks and registers how to stop them; main.ts only picks which. The api role answers its URL. */
const STARTERS: Record<Role, (deps: RoleDeps) => Promise<string | void>> = {
  api: startApi,
  ingester: async (deps) => startTasks("ingester", deps),
  prober: async (deps) => startTasks("prober", deps),
  alerter: async (deps) => startTasks("alerter", deps),
  canary: async (deps) => startCanary(deps),
  indexer: async (deps) => startTasks("indexer", deps),
};

/** The paid checker spends money: without its own key it is off, said once (decision 0051). */
async function startCanary(deps: RoleDeps): Promise<void> {
  if (!deps.ctx.config.canary.privateKey) {
    deps.ctx.log.info("the paid checker (role canary) is off: set CANARY_PRIVATE_KEY to a wallet of its own to check delivery (docs/operations.md)");
    return;
  }
  startTasks("canary", deps);
}

export const startRole = (role: Role, deps: RoleDeps) => STARTERS[role](deps);

async function startApi(deps: RoleDeps): Promise<string> {
  const { ctx, rail, lifecycle } = deps;
  const { config, log } = ctx;
  if (!rail) throw new Error("the api role needs a payment rail");
  const gate = await createAppGate(ctx, rail, productRoutes);
  ctx.readiness.facilitator = () => rail.facilitator.getSupported();
  const app = createApp({ ctx, routes: productRoutes, gate });
  startTasks("api", deps);
  const server = await listen(app, config.host, config.port);
  lifecycle.add("http", () => server.close());
  ctx.services.warm().catch((err: unknown) => log.warn({ err }, "warming the catalog products failed; the first calls will build them"));
  log.info({ url: server.url, public: config.publicBaseUrl, payTo: rail.payTo, network: rail.network }, "x402 Lookout listening");
  return server.url;
}
