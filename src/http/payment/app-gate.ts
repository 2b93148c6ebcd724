import type { PaymentRail } from "../../chain/payment-rail.js";
import type { AppContext } from "../../context.js";
import { isPaid, type AnyRouteDef } from "../registry.js";
import { createCreditBranch } from "./credit.js";
import { createPaymentGate } from "./gate.js";
import type { PaidRoute, PaymentGate } from "./types.js";
import { createPaymentMetrics } from "../metrics.js";

/** The payment core for an app's routes on a rail, with the context's ledger and credit bundles. */
export function createAppGate(
  ctx: AppContext,
  rail: PaymentRail,
  routes: readonly AnyRouteDef[],
  opts: { facilitatorTimeoutMs?: number } = {},
): Promise<PaymentGate> {
  const metrics = createPaymentMetrics(ctx.metrics);
  return createPaymentGate({
    network: rail.network,
    payTo: rail.payTo,
    asset: rail.asset,
    facilitator: rail.facilitator,
    publicBaseUrl: ctx.config.publicBaseUrl,
    routes: routes.filter(isPaid) as PaidRoute[],
    ledger: ctx.services.payments,
    credits: createCreditBranch(ctx.services.credits, metrics),
    chain: rail.chain,
    smartSignatures: rail.smartSignatures,
    facilitatorTimeoutMs: opts.facilitatorTimeoutMs,
    metrics,
  });
}
