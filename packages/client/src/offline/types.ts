import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { VerdictDeltas, VerdictSnapshot } from "@x402-lookout/contracts/snapshot/schemas";
import type { LookoutClient } from "../client.js";
import type { GuardDecision } from "../guard/decision.js";
import type { ModeOptions } from "../guard/modes.js";
import type { RecommendedAction } from "../types.js";
import type { OfflineDecision, OfflineRequirement } from "./decide.js";

/** The typed client's methods the offline guard uses: a LookoutClient has them. */
export interface OfflineLookout extends Pick<LookoutClient, "baseUrl" | "keys" | "preflight"> {
  verdictSnapshot(input: Record<string, never>): Promise<VerdictSnapshot>;
  verdictDeltas(input: { since: number }): Promise<VerdictDeltas>;
}

export interface OfflineGuardOptions extends ModeOptions {
  lookout: OfflineLookout;
  /** How often deltas are asked for (default 60 s; an answer speaks for 15 minutes). */
  refreshMs?: number;
  now?: () => number;
  /** Recommended actions that block (default skip, use_alternatives, as guardFetch); ok=false always does. */
  blockActions?: readonly RecommendedAction[];
  /** A snapshot or delta that failed or was refused; the store keeps what it had. */
  onError?: (error: unknown) => void;
  /** Every decision check makes, as guardFetch and lookoutPolicy report theirs. */
  onDecision?: (decision: GuardDecision) => void;
}

export interface OfflineGuard {
  /** Settles once the first snapshot was applied (true) or failed (false: every decision asks preflight until a refresh succeeds). */
  readonly ready: Promise<boolean>;
  readonly seq: number | null;
  readonly size: number;
  /** The local decision, or null: ask preflight (not catalogued, another quote, or the store has expired). */
  decide(url: string, method: string | undefined, requirement?: OfflineRequirement): OfflineDecision | null;
  /**
   * The decision on the requirement about to be signed: local when the snapshot holds it, else
   * preflight's on that requirement, under the guard's modes (guardFetch's quote stage; a
   * GuardDecision with snapshotEntry when decided locally).
   */
  check(url: string, method: string, paymentRequired: PaymentRequired, selected?: PaymentRequirements): Promise<GuardDecision>;
  /** Takes deltas now (a snapshot when the store has none or deltas were refused as too old); rejects on a failure. */
  refresh(): Promise<void>;
  stop(): void;
}
