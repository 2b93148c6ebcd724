/** PayTos read up to the same block: they are read together. */
export interface PayeeGroup {
  syncedTo: bigint;
  /** The earliest first block among them: nothing before it is read. */
  fromBlock: bigint;
  payTos: string[];
}

export interface ReadRange {
  from: bigint;
  to: bigint;
  payTos: string[];
  /** The cursor the range was planned from: writing it moves the payTos from there to `to`. */
  syncedTo: bigint;
}

export interface PlanLimits {
  /** Blocks per eth_getLogs range. */
  rangeBlocks: bigint;
  /** The newest blocks read again at every step: a reorg among them replaces what they held. */
  rereadBlocks: bigint;
  /** Ranges per step: bounds one step's requests and the rows it holds. */
  maxRanges: number;
}

/**
 * The next ranges to read, one per group: the tail (the group synced furthest) first, so new
 * payTos' 30-day backfills never hold up fresh settlements, then the laggards from the lowest.
 * A group past `head` (the chain went back) reads the re-read window again up to `head`.
 */
export function planReads(groups: readonly PayeeGroup[], head: bigint, limits: PlanLimits): ReadRange[] {
  const ordered = [...groups].sort((a, b) => (a.syncedTo < b.syncedTo ? -1 : a.syncedTo > b.syncedTo ? 1 : 0));
  const tail = ordered.pop();
  const reads = (tail ? [tail, ...ordered] : []).map((g) => rangeOf(g, head, limits)).filter((r): r is ReadRange => r !== null);
  return reads.slice(0, limits.maxRanges);
}

function rangeOf(g: PayeeGroup, head: bigint, { rangeBlocks, rereadBlocks }: PlanLimits): ReadRange | null {
  if (g.syncedTo === head || head < g.fromBlock) return null;
  const next = (g.syncedTo < head ? g.syncedTo : head) + 1n;
  const from = max(g.fromBlock, next - rereadBlocks);
  const to = g.syncedTo > head ? head : min(head, next + rangeBlocks - 1n);
  return { from, to, payTos: g.payTos, syncedTo: g.syncedTo };
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
