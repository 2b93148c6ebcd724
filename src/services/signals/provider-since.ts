import type { ListingRow } from "./listing-row.js";

/** new_provider's evidence for one listing: the provider's earliest dated sighting, and whether any paid call is reported. */
export interface ProviderEvidence {
  since: number | null;
  called: boolean;
}

const time = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : null);
const earliest = (...ts: Array<number | null>) => ts.reduce<number | null>((m, t) => (t === null ? m : m === null ? t : Math.min(m, t)), null);

/** Whether any source reports a paid call of this listing (in the last 30 days, or a last call ever). */
export const reportsCalls = (
  r: Pick<ListingRow, "l30d_calls" | "last_called_at"> & Partial<Pick<ListingRow, "sources_l30d_calls" | "sources_last_called_at">>,
) => (r.l30d_calls ?? 0) > 0 || Number(r.sources_l30d_calls ?? 0) > 0 || r.last_called_at !== null || (r.sources_last_called_at ?? null) !== null;

/**
 * The provider's own first sighting anywhere (docs/signals.md, decision 0039), per listing: the
 * earliest of its service's and its payee's first sighting here, any of their listings' first
 * sighting and any last call a source reports; and whether a source reports paid calls at all,
 * which are settlements a catalog counted: a track record, however recent our own sighting is.
 * A provider is its service (name) and its payee: either one seen before is not new.
 */
export function providerEvidence(rows: readonly ListingRow[]): Map<number, ProviderEvidence> {
  const byService = new Map<string, ProviderEvidence>();
  const byPayee = new Map<string, ProviderEvidence>();
  const add = (m: Map<string, ProviderEvidence>, key: string | null, since: number | null, called: boolean) => {
    if (key === null) return;
    const e = m.get(key) ?? { since: null, called: false };
    m.set(key, { since: earliest(e.since, since), called: e.called || called });
  };
  for (const r of rows) {
    const since = earliest(time(r.first_seen_at), time(r.last_called_at), time(r.sources_last_called_at));
    const called = reportsCalls(r);
    add(byService, r.service_id, earliest(since, time(r.service_first_seen_at)), called);
    add(byPayee, r.provider_id, earliest(since, time(r.provider_first_seen_at)), called);
  }
  const out = new Map<number, ProviderEvidence>();
  for (const r of rows) {
    const s = byService.get(r.service_id)!;
    const p = r.provider_id === null ? s : byPayee.get(r.provider_id)!;
    out.set(r.id, { since: earliest(s.since, p.since), called: s.called || p.called });
  }
  return out;
}
