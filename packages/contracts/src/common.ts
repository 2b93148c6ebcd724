import { z } from "zod";

export const ErrorBodySchema = z
  .object({
    error: z.string().describe("machine-readable error code"),
    message: z.string().describe("what went wrong and how to fix it"),
    request_id: z.string().describe("echoes the x-request-id response header"),
    payment_settled: z
      .boolean()
      .nullable()
      .optional()
      .describe("on paid routes: whether the payment was settled (never on a failed answer); null while its settlement is pending"),
    settlement_skipped: z.boolean().optional(),
    retry_after_seconds: z.number().int().optional(),
    detail: z.string().optional(),
  })
  .passthrough();

export const PaymentRequiredSchema = z.object({
  x402Version: z.literal(2),
  error: z.string().optional(),
  resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }),
  accepts: z
    .array(
      z.object({
        scheme: z.literal("exact"),
        network: z.string(),
        asset: z.string(),
        amount: z.string().describe("10^-6 USDC units"),
        payTo: z.string(),
        maxTimeoutSeconds: z.number().int(),
        extra: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** Absolute http(s) URL as the spec's request fields want it. */
export const httpUrlField = (max = 2048) =>
  z
    .string({ error: "must be a string" })
    .max(max, `must be at most ${max} characters`)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), "must be an absolute http or https URL");

export const dateTime = () => z.string().datetime({ offset: true });

/** A share in percent: healthy of probed, a group of the catalog; never outside 0..100. */
export const percent = () => z.number().min(0).max(100);
