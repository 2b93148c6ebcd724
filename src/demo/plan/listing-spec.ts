import type { Answer } from "../answers/seeded.js";
import type { ProviderKey } from "../providers.js";
import type { DemoKind, DemoMethod, QuoteTrick } from "../types.js";

/** A service as a marketplace shows it: a name, its billing provider and its topic tags. */
export interface ServiceSpec {
  serviceName: string;
  provider: ProviderKey;
  tags: string[];
}

export interface QualitySpec {
  calls: number;
  payers: number;
  /** null: never called (no lastCalledAt). */
  lastCalledHoursAgo: number | null;
}

/** One demo listing before it has a server: everything but the origin. */
export interface ListingSpec {
  service: ServiceSpec;
  kind: DemoKind;
  method: DemoMethod;
  /** Path on its server, starting with "/". */
  path: string;
  /** USDC, decimal string. */
  price: string;
  description: string;
  quality: QualitySpec;
  /** How long ago the catalog last saw the listing change. */
  updatedDaysAgo: number;
  /** Example query (GET) or JSON body (POST); goes into the Bazaar discovery declaration. */
  input: Record<string, unknown>;
  answer: Answer;
  /** JSON schemas for the Bazaar declaration; default: the input's read off its example, no output schema. */
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Set for endpoints that always fail: the status they answer. */
  failStatus?: number;
  /** Proxy resellers: the upstream listing's path on the marketplace server. */
  upstreamPath?: string;
  /** Quote traps: the terms the challenge quotes instead of the listed ones (servers/quote-tricks.ts). */
  quoteTrick?: QuoteTrick;
  /** Codes this listing shows beyond its kind's (expectations.ts), e.g. a resale priced past its provider's median. */
  alsoExpect?: string[];
}

type ListingFields = Omit<ListingSpec, "service" | "kind" | "updatedDaysAgo"> & {
  kind?: DemoKind;
  updatedDaysAgo?: number;
};

/** Shorthand for the plan files: a listing of `service`, healthy unless told otherwise. */
export function listing(service: ServiceSpec, fields: ListingFields): ListingSpec {
  return { service, kind: "healthy", updatedDaysAgo: 14, ...fields };
}

export const used = (calls: number, payers: number, lastCalledHoursAgo: number): QualitySpec => ({
  calls,
  payers,
  lastCalledHoursAgo,
});

export const neverCalled: QualitySpec = { calls: 0, payers: 0, lastCalledHoursAgo: null };

/** A JSON schema for the declaration, read off the example input (every example key required). */
export function schemaOf(example: Record<string, unknown>): Record<string, unknown> {
  const typeOf = (v: unknown) => (Array.isArray(v) ? "array" : typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : "string");
  return {
    properties: Object.fromEntries(Object.entries(example).map(([k, v]) => [k, { type: typeOf(v) }])),
    required: Object.keys(example),
  };
}
