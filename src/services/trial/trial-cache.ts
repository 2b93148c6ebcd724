import type { DbHandle } from "../../db/client.js";
import { createTrialAnswerStore } from "../../db/read-models/trial-answers.js";
import type { SignedPreflightReport as PreflightReport } from "@x402-lookout/contracts/preflight/schemas";
import { TRIAL } from "../signals/constants.js";

/** Trial answers are kept 300 s per URL (/spec#preflight-trial), shared by the API processes. */
export function createTrialCacheStore(handle: Pick<DbHandle, "db" | "prepared">): (urlNormalized: string, report: PreflightReport, now: Date) => Promise<void> {
  return createTrialAnswerStore<PreflightReport>(handle, TRIAL.cacheSeconds);
}
