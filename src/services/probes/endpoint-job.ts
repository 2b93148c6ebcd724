import { sql } from "kysely";
import type { EndpointJob } from "./endpoint-probe.js";
import { declaredBody } from "./probe-body.js";
import { declaredQuery } from "./probe-query.js";

/**
 * The input a catalog item declares (decision 0046): the v2 Bazaar extension's, else a v1
 * item's top-level inputSchema (as PayAI lists it) or its first accepts entry's outputSchema.input.
 */
export const DECLARED_INPUT = sql`coalesce(l.raw #> '{extensions,bazaar,info,input}', l.raw -> 'inputSchema', l.raw #> '{accepts,0,outputSchema,input}')`;

/** What a probe of listing `l` needs, as every strategy that probes endpoints selects it. */
export const JOB_COLUMNS = sql`l.id, l.url, l.method, l.host, l.network, l.asset,
  (select profile from probes where listing_id = l.id order by probed_at desc limit 1) as previous_profile,
  ${DECLARED_INPUT} as declared_input,
  (coalesce(l.price_atomic, 0) > 0 or coalesce(l.price_usdc, 0) > 0) as paid`;

/** A row of JOB_COLUMNS. */
export type JobRow = {
  id: number;
  url: string;
  method: string;
  host: string;
  network: string | null;
  asset: string | null;
  previous_profile: string | null;
  declared_input: unknown;
  paid: boolean;
};

export const jobOf = (r: JobRow): EndpointJob => ({
  listingId: Number(r.id),
  url: r.url,
  method: r.method,
  host: r.host,
  network: r.network,
  asset: r.asset,
  previousProfile: r.previous_profile,
  inputExample: declaredBody(r.declared_input),
  inputQuery: declaredQuery(r.declared_input),
  paid: r.paid === true,
});
