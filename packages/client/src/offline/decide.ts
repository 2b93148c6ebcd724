import { readRequirement, sameAddress } from "@x402-lookout/contracts/quote";
import type { VerdictEntry } from "@x402-lookout/contracts/snapshot/schemas";
import type { BlockReason } from "../guard/errors.js";
import type { RecommendedAction } from "../types.js";

/** The requirement the agent's x402 client is about to sign (an `accepts` entry, v2 or v1). */
export interface OfflineRequirement {
  network: string;
  asset?: string | null;
  payTo?: string | null;
  /** v2 */
  amount?: string | number | null;
  /** v1 */
  maxAmountRequired?: string | number | null;
  /** Added to the clock by the client as written: anything but an integer never matches an entry. */
  maxTimeoutSeconds?: unknown;
}

/** What the snapshot says about a catalogued listing, decided without asking the service. */
export interface OfflineDecision {
  decision: "allow" | "block";
  entry: VerdictEntry;
  /** Why it blocks (the guard's reasons: not_ok, action); empty when it allows. */
  reasons: BlockReason[];
}

/**
 * The local decision on one entry, or null when the entry does not speak for this payment: the
 * requirement names another payTo, asset, network or amount than the listing was judged on (or
 * the entry lacks one of them), so only preflight can judge the quote.
 */
export function decideEntry(
  entry: VerdictEntry,
  requirement: OfflineRequirement | undefined,
  blockActions: readonly RecommendedAction[],
): OfflineDecision | null {
  if (requirement !== undefined && !sameQuote(entry, requirement)) return null;
  const reasons: BlockReason[] = [];
  if (!entry.ok) reasons.push("not_ok");
  if (blockActions.includes(entry.action)) reasons.push("action");
  return { decision: reasons.length === 0 ? "allow" : "block", entry, reasons };
}

function sameQuote(entry: VerdictEntry, r: OfflineRequirement): boolean {
  // The contracts' one reader: a requirement that reads two ways (amount or timeout) never matches an entry.
  const read = readRequirement(r, r.amount === undefined ? 1 : 2);
  const amount = read.malformed === null ? read.amount : null;
  return (
    entry.network === r.network &&
    amount !== null &&
    entry.amount === amount &&
    sameAddress(entry.pay_to, r.payTo ?? null) &&
    sameAddress(entry.asset, r.asset ?? null)
  );
}
