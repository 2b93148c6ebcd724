import type { Kysely } from "kysely";
import type { OutcomeAccepted } from "@x402-lookout/contracts/outcomes/report-outcome";
import { atomicToUsdc } from "@x402-lookout/contracts/usdc";
import type { Database } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { publicId } from "../../lib/public-id.js";
import { TokenBuckets } from "../../lib/token-buckets.js";
import { refreshDeliverySummaries } from "../delivery/summary.js";
import { ClaimRefused, Conflict, InvalidInput, NotFound, QuotaExceeded } from "../errors.js";
import { updateVerdicts } from "../evidence/index.js";
import type { FindListings } from "../reports/listing-lookup.js";
import { MINUTE } from "../signals/constants.js";
import { settlementToReport } from "./settlement.js";
import { signedByPayer, type SignedReport } from "./signature.js";

/** issued_at may differ from the service's clock by this much. */
export const ISSUED_AT_SKEW_MS = 5 * MINUTE;
/** Per client address: a burst of 30, then 30 a minute. */
export const REPORT_LIMIT = { capacity: 30, perSecond: 0.5, maxKeys: 10_000 } as const;

export interface OutcomesDeps {
  db: Kysely<Database>;
  clock: Clock;
  find: FindListings;
}

/**
 * Payers' word, proven by their payment (decision 0052): a report counts only when its payer
 * signed it and the chain index holds that payer's settlement to the listing's payTo, named by the
 * report, within 7 days; each settlement is reported once. Anything else changes nothing.
 */
export function createOutcomes({ db, clock, find }: OutcomesDeps) {
  const buckets = new TokenBuckets(REPORT_LIMIT);
  return {
    async report(r: SignedReport, clientIp: string): Promise<OutcomeAccepted> {
      const now = clock.now();
      const wait = buckets.take(clientIp, now.getTime());
      if (wait > 0)
        throw new QuotaExceeded("outcome_reports", 30, new Date(now.getTime() + wait * 1000), now, "more than 30 outcome reports a minute from this address");
      if (Math.abs(r.issued_at * 1000 - now.getTime()) > ISSUED_AT_SKEW_MS)
        throw new InvalidInput("issued_at", "issued_at must be within 5 minutes of now (unix seconds)");
      const listing = (await find([r.url])).get(r.url);
      if (!listing?.pay_to || !listing.network) throw new NotFound(`no listed endpoint matches ${r.url}`, "unknown_endpoint");
      if (!(await signedByPayer(r))) throw new ClaimRefused("signature_invalid", "the signature does not recover to payer over this report's EIP-712 message");
      const open = await settlementToReport(db, { network: listing.network, payTo: listing.pay_to }, r, now);
      const id = publicId("or");
      const inserted = await db
        .insertInto("outcome_reports")
        .values({
          id,
          listing_id: Number(listing.id),
          network: listing.network,
          tx_hash: open.tx_hash,
          log_index: open.log_index,
          payer: open.payer,
          outcome: r.outcome,
          detail: r.detail ?? "",
          settled_at: open.settled_at,
          amount_atomic: open.amount_atomic,
          signature: r.signature,
          issued_at: new Date(r.issued_at * 1000),
          accepted_at: now,
        })
        .onConflict((oc) => oc.columns(["network", "tx_hash", "log_index"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new Conflict("this settlement was reported already", "already_reported");
      await refreshDeliverySummaries(db, [Number(listing.id)], now);
      await updateVerdicts({ db }, [Number(listing.id)], now);
      return {
        id,
        url: listing.url,
        outcome: r.outcome,
        payer: open.payer,
        tx: open.tx_hash,
        settled_at: open.settled_at.toISOString(),
        amount_usdc: atomicToUsdc(open.amount_atomic),
        accepted_at: now.toISOString(),
      };
    },
  };
}
