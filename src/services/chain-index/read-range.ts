import type { LogSource, TransferLog } from "./log-source.js";
import { matchSettlements } from "./match.js";
import type { ReadRange } from "./plan.js";
import type { SettlementRow } from "./write-range.js";

/** The settlements among a range's `transfers`, with each block's time and each transaction's sender. */
export async function settlementsIn(source: LogSource, range: ReadRange, transfers: readonly TransferLog[]): Promise<SettlementRow[]> {
  if (transfers.length === 0) return [];
  const payers = [...new Set(transfers.map((t) => t.from))];
  const matched = matchSettlements(transfers, await source.authorizations(range.from, range.to, payers));
  const blocks = await source.blocks([...new Set(matched.map((m) => m.blockNumber))]);
  return matched.map((m) => {
    const block = blocks.get(m.blockNumber);
    if (!block) throw new Error(`block ${m.blockNumber} of a settlement could not be read`);
    return {
      tx_hash: m.txHash,
      log_index: m.logIndex,
      block_number: m.blockNumber.toString(),
      block_hash: m.blockHash,
      settled_at: new Date(block.timestamp * 1000).toISOString(),
      pay_to: m.to,
      payer: m.from,
      amount_atomic: m.value.toString(),
      nonce: m.nonce,
      sender: block.senders.get(m.txHash) ?? "",
    };
  });
}
