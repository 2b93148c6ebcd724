import { VANTAGE_CONFIRM_WAIT_MS } from "./vantages.js";

/** A listing's open cross-vantage confirmation request (vantage_confirmations). */
export interface ConfirmRequest {
  requested_by: string;
  requested_at: Date;
  confirmed_at: Date | null;
}

/** What the gate reads of a listing: its stored verdict, its newest probe and its request. */
export interface GateRow {
  /** The published verdict's critical flag; null before the first. */
  critical: boolean | null;
  last_outcome: string | null;
  last_vantage: string | null;
  last_probed_at: Date | null;
  confirm: ConfirmRequest | null;
}

export interface GateAction {
  /** Keep the published verdict: the new critical one waits for another vantage's probe. */
  hold: boolean;
  /** Open (or renew) a request naming this vantage as the one that saw the failure. */
  open: string | null;
  /** Drop the listing's request: nothing calls for it any more. */
  close: boolean;
}

const PASS: GateAction = { hold: false, open: null, close: false };

/**
 * Decision 0048: with two or more live vantages, a failure or a newly critical verdict opens a
 * request that another vantage probe the listing; the new critical verdict is published once that
 * probe is in the evidence (which judged it again), or once VANTAGE_CONFIRM_WAIT_MS passed without
 * it. One live vantage: nothing is held, as before vantages.
 */
export function vantageGate(row: GateRow, critical: boolean, live: number, now: Date): GateAction {
  const close = row.confirm !== null;
  if (live < 2) return { ...PASS, close };
  const newly = critical && row.critical !== true;
  if (!(row.last_outcome === "error" || newly)) return { ...PASS, close };
  const c = row.confirm;
  if (c === null) return { hold: newly, open: row.last_vantage ?? "default", close: false };
  const answered = row.last_vantage !== null && row.last_vantage !== c.requested_by && row.last_probed_at !== null && row.last_probed_at >= c.requested_at;
  if (c.confirmed_at !== null || answered) return PASS;
  return { ...PASS, hold: newly && now.getTime() - c.requested_at.getTime() < VANTAGE_CONFIRM_WAIT_MS };
}
