import type { DiscoveryResource, DiscoveryResourcesResponse } from "@x402/extensions/bazaar";
import type { FacilitatorClient } from "../chain/facilitator.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/log.js";

/** What a demo endpoint is there to show. */
export type DemoKind =
  | "healthy"
  | "dead_5xx"
  | "dead_refused"
  | "zombie"
  | "decoy"
  | "suspicious_price"
  | "slow"
  | "flapping"
  | "wildcard_402"
  | "spa_fallback"
  | "proxy_reseller"
  | "ghost"
  | "never_paid"
  | "cloaked_quote"
  | "price_switch"
  | "pay_to_switch"
  | "non_usdc_asset"
  | "needs_query"
  | "needs_input"
  | "big_challenge"
  | "dies_early"
  | "paid_ok"
  | "paid_500"
  | "paid_empty"
  | "paid_canned"
  | "paid_off_schema"
  | "paid_401";

export type DemoMethod = "GET" | "POST";

/**
 * What a naked (unpaid) request to the endpoint gets. `402_unlisted_terms`: a real challenge
 * whose terms differ from the listed ones for some clients, from some moment, or always.
 */
export type NakedResponse =
  | "402_challenge"
  | "402_challenge_after_delay"
  | "402_or_503_by_phase"
  | "5xx"
  | "connection_refused"
  | "200_html"
  | "402_unlisted_terms"
  | "422_without_declared_input"
  | "422_always"
  | "402_large_challenge"
  | "402_then_5xx";

/**
 * How a quote trap's challenge departs from its listing (decision 0020). `shownTo`: clients
 * whose User-Agent is not exactly "node" (cloaking), everyone from `quoteSwitchAfterMs` after
 * the fleet started (a switch), or everyone always. Unset terms stay the listed ones.
 */
export interface QuoteTrick {
  shownTo: "not_node" | "after_switch" | "always";
  /** USDC, decimal string. */
  price?: string;
  payTo?: string;
  asset?: { address: string; name: string; version: string };
}

export interface DemoExpectation {
  naked: NakedResponse;
  /**
   * Codes (docs/signals.md) the service should give once the note's conditions hold, compared
   * with `reason_codes` (every code; `warnings` holds the spec's only, decision 0045).
   */
  warnings: string[];
  /** Delist-feed reasons (docs/delist.md) expected for the listing, e.g. `ghost_listing`. */
  delistReasons: string[];
  /**
   * Codes that may fire too: a cloaked quote shows some request profiles the listed price and the
   * rest another, so the price read follows the profile of its newest probe (and moves its
   * provider's median price with it).
   */
  mayAlso?: string[];
  /**
   * Where the codes come from when the prober alone cannot see them: `delivery`, a paid check
   * (the canary role). Its probes read healthy, so consumers scoring probe evidence skip them.
   */
  evidence?: "delivery";
  note: string;
}

/** Usage figures as the CDP Bazaar reports them per listing. */
export interface DiscoveryQuality {
  l30DaysTotalCalls: number;
  l30DaysUniquePayers: number;
  /** Absent when nobody ever paid the listing. */
  lastCalledAt?: string;
}

/** One catalog item: the SDK's DiscoveryResource plus the Bazaar's `quality` block. */
export type DemoCatalogItem = DiscoveryResource & { quality: DiscoveryQuality };

export type DemoCatalogPage = Omit<DiscoveryResourcesResponse, "items"> & { items: DemoCatalogItem[] };

export interface DemoEndpoint {
  url: string;
  method: DemoMethod;
  kind: DemoKind;
  serviceName: string;
  /** Display name of the billing namespace; the service groups providers by `payTo`. */
  provider: string;
  payTo: string;
  /** USDC, decimal string ("0.001"). */
  price: string;
  /** The challenge amount, 10^-6 USDC units ("1000"). */
  amount: string;
  description: string;
  tags: string[];
  quality: DiscoveryQuality;
  expected: DemoExpectation;
  /** Proxy resellers only: the listed URL the reseller forwards to. */
  upstreamUrl?: string;
  /** Quote traps only: the terms the endpoint quotes instead of the listed ones, and to whom. */
  quoteTrick?: QuoteTrick;
}

/** A listing added at run time; catalog only, nothing serves it unless the URL is a fleet URL. */
export interface DemoListingInput {
  url: string;
  method?: DemoMethod;
  serviceName: string;
  description?: string;
  /** USDC, decimal string. */
  price: string;
  /** Defaults to the fleet's `payTo`. */
  payTo?: string;
  tags?: string[];
  quality?: DiscoveryQuality;
}

export interface DemoFleetOptions {
  log: Logger;
  facilitator: FacilitatorClient;
  network: string;
  payTo: string;
  asset: { address: string; name: string; version: string };
  /** Default 127.0.0.1. Every server binds here on an ephemeral port. */
  host?: string;
  /** Length of each up and each down phase of the flapping endpoint (default 20 minutes). */
  flapPeriodMs?: number;
  /** Delay before the slow endpoint sends headers (default 2500 ms). */
  slowMs?: number;
  /** When the quote traps that switch (price, payTo) start quoting their other terms (default 15 minutes). */
  quoteSwitchAfterMs?: number;
  /** Anchors catalog dates (lastCalledAt, lastUpdated) and the quote switch; default the system clock. */
  clock?: Clock;
}

/** The origin (`http://host:port`) of each demo server, so host-level checks can be aimed. */
export interface DemoHosts {
  catalog: string;
  marketplace: string;
  zombie: string;
  premium: string;
  wildcard: string;
  spa: string;
  reseller: string;
  /** Mirage Labs' quote traps: cloaked, switched and non-USDC quotes. */
  quotes: string;
  /** Northwind Data: settles every payment before it answers; five listings then fail to deliver. */
  delivery: string;
  /** A port nothing listens on. */
  refused: string;
}

export interface DemoFleet {
  /** The Bazaar discovery endpoint: GET ?type=http&limit=N&offset=M. */
  catalogUrl: string;
  endpoints: DemoEndpoint[];
  hosts: DemoHosts;
  /** Adds a listing to the catalog, or replaces the listing with the same URL. */
  addListing(listing: DemoListingInput): void;
  /** Removes a listing from the catalog (the endpoint keeps answering); false when absent. */
  removeListing(url: string): boolean;
  stop(): Promise<void>;
}
