import { z } from "zod";

/** The attribution object product routes add to their answer (/spec#provenance). */
export const AttributionSchema = z.object({
  authority: z.string().describe("the service's own base address"),
  product: z.string().describe("<Product> by x402 Lookout"),
  claim: z.string().describe("states that this is provenance, not endorsement"),
  url: z.string().describe("base address"),
  spec: z.string().describe("address of the service's specification page"),
});

export type Attribution = z.infer<typeof AttributionSchema>;
