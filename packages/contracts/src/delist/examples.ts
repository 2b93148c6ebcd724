const RECOVERED = {
  url: "https://weather.example/v1/hourly",
  method: "GET",
  was_reasons: ["dead", "dead_7d"],
  flagged_until: "2026-11-19T00:00:00.000Z",
  uptime_48h_pct: 98,
};

export const SNAPSHOT_EXAMPLE = {
  generated_at: "2026-11-20T12:00:00.000Z",
  mode: "snapshot" as const,
  scope: "all" as const,
  counts: {
    should_delist: 2,
    newly_flagged: 1,
    recovered: 1,
    ghost_listings: 1,
    by_reason: { dead: 0, decoy_price_extreme: 1, zombie: 0, dead_7d: 0, mostly_dead: 0, pay_to_mismatch: 0, ghost_listing: 1 },
  },
  truncated: false,
  limit: 2000,
  should_delist: [
    {
      url: "https://premium-signals.example/api/alpha",
      method: "POST",
      reasons: ["decoy_price_extreme"],
      first_flagged_at: "2026-11-14T08:10:00.000Z",
      confidence: "high" as const,
      flagged_days_consecutive: 7,
      uptime_7d_pct: 100,
      cdp_listed: true,
      cdp_l30d_calls: 0,
    },
    {
      url: "https://weather.example/v1/history",
      method: "GET",
      reasons: ["ghost_listing"],
      first_flagged_at: "2026-11-20T06:00:00.000Z",
      confidence: "low" as const,
      flagged_days_consecutive: 1,
      uptime_7d_pct: 99,
      cdp_listed: true,
      cdp_l30d_calls: 0,
    },
  ],
  recovered: [RECOVERED],
};

export const DIFF_EXAMPLE = {
  generated_at: "2026-11-20T12:00:00.000Z",
  mode: "diff" as const,
  scope: "all" as const,
  window: { since: "2026-11-19T12:00:00.000Z", until: "2026-11-20T12:00:00.000Z" },
  counts: { should_delist: 1, newly_flagged: 1, recovered: 1, ghost_listings: 1 },
  truncated: false,
  limit: 2000,
  should_delist: [
    {
      url: "https://weather.example/v1/history",
      method: "GET",
      reasons: ["ghost_listing"],
      first_flagged_at: "2026-11-20T06:00:00.000Z",
      confidence: "low" as const,
    },
  ],
  recovered: [RECOVERED],
};
