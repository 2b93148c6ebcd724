/**
 * The quote evidence of one listing as the rules read it (snapshot detail.quote): the rules own
 * their input; src/services/quotes reads it from the prober's challenges and the catalog's sources.
 */

/** The terms its catalog lists (listings columns); amount in atomic units. */
export interface ListedQuote {
  network: string | null;
  asset: string | null;
  payTo: string | null;
  amount: string | null;
  url: string;
}

/** Distinct values seen by the prober's challenges in the last 7 days, newest first (a few each). */
export interface SeenValues {
  pay_to: string[];
  asset: string[];
  network: string[];
  scheme: string[];
  resource_url: string[];
  amount: string[];
}

/** What the quote signals read, beside the listed terms: see src/services/signals/engine.ts. */
export interface ObservedQuote {
  /** The newest challenge's terms (any profile). */
  live: { network: string; asset: string | null; payTo: string | null; amount: string; at: string; malformed?: string | null } | null;
  /** Distinct payTo values seen in the last 7 days. */
  payTos7d: number;
  /** The lowest amount seen in the 24 hours before the newest challenge (same network and asset). */
  lowestAmount24h: string | null;
  /** Two request profiles were shown different prices or payees at overlapping times. */
  profilesDisagree: boolean;
  /** The highest amount seen in 7 days: a quote above it is a price trap. */
  highestAmount7d: string | null;
  seen: SeenValues;
  /** What the sources listing it say now; absent where no source lists it (docs/catalog.md). */
  catalog?: CatalogTerms;
}

/** What one catalog source (or the provider's own manifest) says of a listing: that source's claim. */
export interface SourceClaim {
  /** The source's id (docs/catalog.md). */
  source: string;
  kind: "bazaar" | "manifest";
  network: string | null;
  asset: string | null;
  payTo: string | null;
  /** Atomic units; priceUsdc as the source listed it. */
  amount: string | null;
  priceUsdc: string | null;
}

/** The sources that list a listing now, weighed against the endpoint's own challenge (decision 0032). */
export interface CatalogTerms {
  /** Sources counted: all of them, less those whose claim the challenge contradicts while another agrees. */
  sources: number;
  /** Distinct payees the counted sources name. */
  payTos: number;
  /** Distinct prices they name in one network and asset (the most among such groups). */
  amounts: number;
  /** The source whose terms the rules compare against (absent in snapshots from before decision 0032). */
  listed?: SourceClaim;
  /** Sources the challenge contradicts while another source agrees with it: source_disagrees, their claims only. */
  disagreeing?: SourceClaim[];
}
