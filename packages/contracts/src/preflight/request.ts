import { z } from "zod";
import { httpUrlField } from "../common.js";
import { readPaymentRequired } from "../quote.js";

export const MAX_BATCH_URLS = 50;
/** Far above a real challenge (a few hundred bytes; a kilobyte or two with extensions). */
export const MAX_PAYMENT_REQUIRED_CHARS = 16_384;

/** An HTTP method token (RFC 9110), upper-cased by the service. */
const methodField = () =>
  z
    .string({ error: "must be a string" })
    .regex(/^[A-Za-z]{1,20}$/, "must be an HTTP method such as GET or POST")
    .describe("the HTTP method the agent will send (upper-cased); default: the listing's");

/** Why a paymentRequired value cannot be read, or null when it can. */
function paymentRequiredProblem(value: string | Record<string, unknown>): string | null {
  if (readPaymentRequired(value) !== null) return null;
  return typeof value === "string"
    ? "not a readable PAYMENT-REQUIRED header value: base64 of a JSON challenge with an `accepts` entry (scheme, network and a whole-number amount)"
    : "not a readable x402 challenge: needs an `accepts` array with an entry that has scheme, network and a whole-number amount (`amount`, or `maxAmountRequired` in v1)";
}

/**
 * The 402 the agent holds: the body object, or the base64 PAYMENT-REQUIRED header value. Checked
 * here, so an unreadable one is a 400 before any payment; the wire value is kept as sent.
 */
const paymentRequiredField = () =>
  z
    .union([z.string().max(MAX_PAYMENT_REQUIRED_CHARS, `must be at most ${MAX_PAYMENT_REQUIRED_CHARS} characters`), z.record(z.string(), z.unknown())], {
      error: "must be the 402 body object or the base64 PAYMENT-REQUIRED header value",
    })
    .superRefine((value, ctx) => {
      const problem = paymentRequiredProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(
      "optional: the 402 challenge the agent is about to pay (the body object or the base64 PAYMENT-REQUIRED header value); the answer then carries `quote` and its signature binds the checked requirement",
    );

/** What `method` and `paymentRequired` add to a verdict: the routes that take a QuoteTargetBody say so in their description. */
export const QUOTE_BINDING =
  "Optional `method` and `paymentRequired` (the 402 body object or the base64 PAYMENT-REQUIRED header value the agent holds) bind the verdict to that quote: the answer adds `quote` (the requirement checked and each of payTo, asset, network, amount, resource.url and scheme against the catalog and the observed history) and its warnings. Every answer carries `signature`, a compact JWS (EdDSA, keys at /.well-known/jwks.json) over the verdict, valid 5 minutes: docs/verdicts.md.";

const quoteFields = { method: methodField().optional(), paymentRequired: paymentRequiredField().optional() };

export const SingleUrlBody = z.object({ url: httpUrlField().describe("the x402 endpoint about to be paid (http or https)") });

/** preflight, preflight-trial and forensics: the URL, and optionally the method and the 402 the agent holds. */
export const QuoteTargetBody = SingleUrlBody.extend(quoteFields);

export const BatchTarget = z.object({ url: httpUrlField(), ...quoteFields });

export const BatchBody = z.object({
  urls: z
    .array(z.union([httpUrlField(), BatchTarget], { error: "must be an http(s) URL or an object {url, method?, paymentRequired?}" }), {
      error: "urls must be an array of http(s) URLs or {url, method?, paymentRequired?} objects",
    })
    .min(1, "urls needs at least one URL")
    .superRefine((urls, ctx) => {
      // Above the cap is 413, not 400 (the preflight-batch section of /spec); the input reader maps `params.status`.
      if (urls.length > MAX_BATCH_URLS)
        ctx.addIssue({ code: "custom", message: `at most ${MAX_BATCH_URLS} URLs per batch, got ${urls.length}`, params: { status: 413 } });
    })
    .describe(
      `1 to ${MAX_BATCH_URLS} elements, each an http(s) URL or {url, method?, paymentRequired?}; duplicate URLs are removed (first occurrence kept), input order is kept`,
    ),
});

export type QuoteTargetInput = z.output<typeof QuoteTargetBody>;
export type BatchItemInput = z.output<typeof BatchBody>["urls"][number];
