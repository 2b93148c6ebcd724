import type { HTTPRequestContext, PaymentOption } from "@x402/core/http";
import type { AssetAmount } from "@x402/core/types";
import type { Clock } from "../../lib/clock.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { CLOAK_USER_AGENT } from "../constants.js";
import type { ListingSpec } from "../plan/listing-spec.js";
import { paymentOption, type PaymentTerms } from "./payment-terms.js";

/** When the switching traps change terms: `switchAt` on the fleet's clock. */
export interface QuoteTiming {
  clock: Clock;
  switchAt: Date;
}

/**
 * The payment option a listing is served with. A quote trap's price and payTo are the SDK's
 * dynamic ones, resolved per request, so the middleware builds (and would settle) the departing
 * terms exactly as it builds the listed ones: the challenge stays a valid x402 v2 402.
 */
export function servedOption(terms: PaymentTerms, spec: ListingSpec, timing: QuoteTiming): PaymentOption {
  const listed = paymentOption(terms, spec);
  const trick = spec.quoteTrick;
  if (!trick) return listed;
  const departs = (c: HTTPRequestContext) =>
    trick.shownTo === "always" || (trick.shownTo === "not_node" ? c.adapter.getUserAgent() !== CLOAK_USER_AGENT : timing.clock.now() >= timing.switchAt);
  const { address, name, version } = trick.asset ?? terms.asset;
  const other: AssetAmount = { asset: address, amount: usdcToAtomic(trick.price ?? spec.price), extra: { name, version } };
  return {
    ...listed,
    price: (c) => (departs(c) ? other : listed.price),
    payTo: (c) => (departs(c) && trick.payTo ? trick.payTo : listed.payTo),
  };
}
