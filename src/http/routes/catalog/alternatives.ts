import { withDeadline } from "../../../lib/transient-errors.js";
import { alternativesContract } from "@x402-lookout/contracts/catalog/alternatives";
import { defineRoute } from "../../registry.js";

/** The alternatives database budget (the 503 of /spec#alternatives). */
const ALTERNATIVES_DB_BUDGET_MS = 8_000;

export const alternativesRoute = defineRoute({
  ...alternativesContract,
  handler: ({ body }, { services }) =>
    withDeadline("alternatives database", ALTERNATIVES_DB_BUDGET_MS, () =>
      services.alternatives.find({ url: body.url, taskClass: body.taskClass, limit: body.limit }),
    ),
});
