import type { AppContext } from "../context.js";
import type { Task } from "./periodic.js";

/**
 * The webhook delivery loop: every poll (and whenever an attempt finishes) it claims due alerts
 * into free slots and returns at once; attempts run beside it, bounded per receiver host and in
 * all (docs/webhooks.md). Evaluation never waits for it.
 */
export const webhookDeliveryTask = (ctx: AppContext): Task => ctx.services.watch.deliverer({ log: ctx.log.child({ worker: "webhook delivery" }) });
