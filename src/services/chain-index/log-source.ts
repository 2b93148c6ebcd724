/**
 * What the indexer reads from a chain (decision 0052). src/chain implements it over viem and
 * JSON-RPC; the service knows no RPC. Addresses are lower-case 0x strings; amounts are atomic.
 */
export interface TransferLog {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  from: string;
  to: string;
  value: bigint;
}

/** An EIP-3009 AuthorizationUsed log: the token used `authorizer`'s signed `nonce` in this transaction. */
export interface AuthorizationLog {
  txHash: string;
  logIndex: number;
  authorizer: string;
  nonce: string;
}

export interface BlockInfo {
  hash: string;
  /** Unix seconds. */
  timestamp: number;
  /** Each transaction's sender, by hash. */
  senders: ReadonlyMap<string, string>;
}

export interface LogSource {
  /** The newest block number. */
  head(): Promise<bigint>;
  /** The first block at or after `unixSeconds` (0 on a chain younger than that). */
  blockAt(unixSeconds: number): Promise<bigint>;
  /** The token's Transfer logs to any of `payTos` in [from, to]; the source splits ranges an RPC refuses. */
  transfers(from: bigint, to: bigint, payTos: readonly string[]): Promise<TransferLog[]>;
  /** The token's AuthorizationUsed logs by any of `authorizers` in [from, to]. */
  authorizations(from: bigint, to: bigint, authorizers: readonly string[]): Promise<AuthorizationLog[]>;
  blocks(numbers: readonly bigint[]): Promise<Map<bigint, BlockInfo>>;
}
