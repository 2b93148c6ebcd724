import { LookoutError, LookoutNetworkError, LookoutTimeoutError, VerdictKeysUnavailableError } from "../errors.js";

/** What to do when the Lookout service cannot answer (time-out, network error, 5xx, 429). */
export type FailMode = "open" | "closed";

/** What to do with an endpoint no catalog lists (warning unknown_endpoint) when nothing else blocks it. */
export type UnknownMode = "allow" | "warn" | "block";

/** Which mode decided a decision: failMode on an outage, unknown on an endpoint with no evidence. */
export type DecidingMode = "failed_open" | "failed_closed" | "unknown_allow" | "unknown_warn" | "unknown_block";

export interface ModeOptions {
  /**
   * On an outage of the service, or a verdict still stale when asked again: "open" lets the
   * payment go unchecked, "closed" (default) stops it.
   */
  failMode?: FailMode;
  /** Endpoints with no evidence: "allow", "warn" (default: allowed, reported as unknown_endpoint) or "block". */
  unknown?: UnknownMode;
}

/** The modes, defaulted and checked: a JavaScript caller's typo or an option of the old API must not pass silently. */
export function readModes(options: ModeOptions): { failMode: FailMode; unknown: UnknownMode } {
  for (const old of ["failOpen", "allowUnknown"])
    if (old in options) throw new TypeError(`${old} was replaced by failMode ("open" | "closed") and unknown ("allow" | "warn" | "block")`);
  const failMode = options.failMode ?? "closed";
  const unknown = options.unknown ?? "warn";
  if (failMode !== "open" && failMode !== "closed") throw new TypeError(`failMode must be "open" or "closed", got ${String(failMode)}`);
  if (!["allow", "warn", "block"].includes(unknown)) throw new TypeError(`unknown must be "allow", "warn" or "block", got ${String(unknown)}`);
  return { failMode, unknown };
}

/**
 * The service could not answer, or its keys could not be had (a rotation's new key inside the
 * refetch pause included). A bad request, a refused payment or a bad signature is not an outage.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof LookoutTimeoutError || error instanceof LookoutNetworkError || error instanceof VerdictKeysUnavailableError) return true;
  return error instanceof LookoutError && error.status !== null && (error.status >= 500 || error.status === 429);
}
