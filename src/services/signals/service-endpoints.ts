import { THRESHOLDS as T } from "./constants.js";
import type { ListingRow } from "./listing-row.js";

/** How a service's distinct endpoints fared in the zombie window (the snapshot's last hour). */
export interface ServiceEndpoints {
  /** Distinct active endpoints (normalised URLs) of the service. */
  endpoints: number;
  /** Endpoints with at least zombieMinProbesPerEndpoint probes in the window, none healthy and none needs_input. */
  failed: number;
  /** Endpoints with at least one healthy probe in the window: the service is not a zombie. */
  healthy: number;
}

/**
 * Per service, by distinct endpoint: zombie needs every endpoint to have failed on its own
 * evidence, so one failing endpoint beside an unprobed one no longer looks like a dead service.
 * Listings sharing a normalised URL are one endpoint and pool their probes.
 */
export function serviceEndpoints(rows: readonly ListingRow[]): Map<string, ServiceEndpoints> {
  type Tally = { probes: number; healthy: number; needsInput: number };
  const byService = new Map<string, Map<string, Tally>>();
  for (const r of rows) {
    const endpoints = byService.get(r.service_id) ?? new Map<string, Tally>();
    const e = endpoints.get(r.url_normalized) ?? { probes: 0, healthy: 0, needsInput: 0 };
    e.probes += r.probes_1h ?? 0;
    e.healthy += r.healthy_1h ?? 0;
    e.needsInput += r.needs_input_1h ?? 0;
    endpoints.set(r.url_normalized, e);
    byService.set(r.service_id, endpoints);
  }
  const out = new Map<string, ServiceEndpoints>();
  for (const [service, endpoints] of byService) {
    const all = [...endpoints.values()];
    out.set(service, {
      endpoints: all.length,
      // An endpoint that answered 400/422 to our input in the window is up, whatever else failed (decision 0046).
      failed: all.filter((e) => e.probes >= T.zombieMinProbesPerEndpoint && e.healthy === 0 && e.needsInput === 0).length,
      healthy: all.filter((e) => e.healthy > 0).length,
    });
  }
  return out;
}
