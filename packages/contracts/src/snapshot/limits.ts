/** The verdict snapshot's terms (docs/offline-guard.md, decision 0022). */
export const SNAPSHOT_LIMITS = {
  /** A snapshot or delta speaks for this long after it was generated; past it the offline guard asks preflight. */
  lifetimeSeconds: 900,
  /** Deltas reach back this far; an older `since` is refused before payment: take a new snapshot. */
  deltaWindowHours: 48,
  /** At most this many changed or removed entries per delta answer; `truncated` says ask again from its `seq`. */
  deltaMaxEntries: 10_000,
} as const;

/** How the service signs a snapshot or delta (the verdicts' key, another type). */
export const SNAPSHOT_JWS = { alg: "EdDSA", typ: "lookout-snapshot+jwt" } as const;
