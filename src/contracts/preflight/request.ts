import { z } from "@hono/zod-openapi";
import { httpUrlField } from "../common.js";

export const SingleUrlBody = z.object({ url: httpUrlField().describe("the x402 endpoint about to be paid (http or https)") });

export const MAX_BATCH_URLS = 50;

export const BatchBody = z.object({
  urls: z
    .array(httpUrlField(), { error: "urls must be an array of http(s) URLs" })
    .min(1, "urls needs at least one URL")
    .superRefine((urls, ctx) => {
      // Above the cap is 413, not 400 (spec 4.3); the input reader maps `params.status`.
      if (urls.length > MAX_BATCH_URLS)
        ctx.addIssue({ code: "custom", message: `at most ${MAX_BATCH_URLS} URLs per batch, got ${urls.length}`, params: { status: 413 } });
    })
    .describe(`1 to ${MAX_BATCH_URLS} http(s) URLs; duplicates are removed, input order is kept`),
});
