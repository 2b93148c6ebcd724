/** Catalog usage figures (CDP Bazaar `quality`); anything unreadable is "not reported". */
export interface ListingUsage {
  l30dCalls: number | null;
  l30dUniquePayers: number | null;
  lastCalledAt: Date | null;
}

const count = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null);

// Years the database stores and a catalog could mean; anything else is "not reported".
const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(9999, 11, 31);

function date(v: unknown): Date | null {
  if (typeof v !== "string" || v === "") return null;
  const t = new Date(v).getTime();
  return t >= MIN_TIME && t <= MAX_TIME ? new Date(t) : null;
}

export function usageOf(quality: unknown): ListingUsage {
  const q = quality !== null && typeof quality === "object" ? (quality as Record<string, unknown>) : {};
  return {
    l30dCalls: count(q.l30DaysTotalCalls),
    l30dUniquePayers: count(q.l30DaysUniquePayers),
    lastCalledAt: date(q.lastCalledAt),
  };
}
