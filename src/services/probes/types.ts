import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { HttpClient } from "./http-client.js";

// Defined beside its classifier so http-client need not import this file (which imports it back).
export type { NetworkErrorKind } from "./network-error.js";

/** A 402 whose challenge could not be read is an error too; this names that case. */
export const NO_CHALLENGE = "no_challenge";

/** A unit of claimed work. `host` (URL.host) is what politeness and claiming key on. */
export interface Job {
  host: string;
}

export interface ClaimOptions {
  owner: string;
  now: Date;
  limit: number;
  /** Hosts that already have enough pending work in this process. */
  excludeHosts: string[];
  /** Most jobs of one host in this claim. */
  perHost: number;
}

/**
 * One kind of probing work. The scheduler claims, runs and records every kind the same way and
 * never looks at which kind it is running.
 */
export interface ProbeStrategy<J extends Job = Job, R = unknown> {
  readonly name: string;
  readonly claimBatchSize: number;
  /** Leases up to `limit` due jobs to `owner`. */
  claim(db: Kysely<Database>, opts: ClaimOptions): Promise<J[]>;
  /** Performs the job; never throws for anything the target did. */
  run(job: J, http: HttpClient, now: Date): Promise<R>;
  /** Persists finished jobs and ends their leases (only leases still held by `owner`). */
  record(db: Kysely<Database>, owner: string, done: Array<{ job: J; result: R }>, now: Date): Promise<void>;
  /** Gives back jobs that were claimed but will not be run (shutdown): due again at `now`. */
  release(db: Kysely<Database>, owner: string, jobs: J[], now: Date): Promise<void>;
  /** Whether a result counts as an error in the cycle summary. */
  isError(result: R): boolean;
  /** The listing a result is about, if any (for snapshot recomputation). */
  listingIdOf(job: J): number | undefined;
}
