/** What one POST /api/v1/credits buys (spec 2.9, 8): 1000 preflight calls, valid 90 days. */
export const CREDIT_BUNDLE = { calls: 1000, validDays: 90 } as const;
