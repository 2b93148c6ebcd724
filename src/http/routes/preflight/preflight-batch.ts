import { preflightBatchContract } from "@x402-lookout/contracts/preflight/preflight-batch";
import { defineRoute } from "../../registry.js";
import { reportTarget } from "./report-target.js";

export const preflightBatchRoute = defineRoute({
  ...preflightBatchContract,
  prepare: ({ body }, services) => services.reports.find(body.urls.map(reportTarget)),
  handler: ({ body }, { services }, rows) => services.reports.batch(body.urls.map(reportTarget), rows),
});
