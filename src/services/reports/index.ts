// What other folders and the container may name: the service, its live prober and its budgets.
export { BATCH_DB_BUDGET_MS, createReportsService, SINGLE_DB_BUDGET_MS, type ReportsDeps, type ReportsService } from "./service.js";
export { createLiveProber, type LiveProber } from "./live-probe.js";
export { targetOf, type ReportTarget } from "./report-target.js";
