/**
 * The paid checker (decision 0051): due listings (candidates), each paid once per interval from the
 * checker's own wallet under one budget every process shares (ledger), through the project's own
 * payment policy (a CheckPayer: src/canary implements it with the client's guard), its answer judged (judge, input-variant, output-schema,
 * answer) and settled from the chain (settle, reconcile), summed up on the snapshot (summary).
 */
export { createCanary, CANARY_BATCH, type Canary, type CanaryDeps, type CanarySettings } from "./service.js";
export { deliveryOf, refreshDeliverySummaries, DELIVERY_RETENTION_MS, SETTLED_OUTCOMES, type DeliverySummary } from "./summary.js";
export type { DeliveryEvidence } from "./evidence.js";
export type { CheckPayer, Exchange, PaidCall, Signed } from "./payer-port.js";
