import type { AppContext } from "../context.js";
import type { Task } from "./periodic.js";

/**
 * The evaluation as a task: signal changes of watched endpoints become alerts in the delivery
 * queue. The delivery loop is its own task (webhook-delivery.ts); test/helpers/start-alerter.ts runs both.
 */
export const alerterTask = (ctx: AppContext): Task => ctx.services.watch.evaluator(ctx.log.child({ worker: "alerter" }));
