import type { BatchEnvelope, SignedBatchEnvelope } from "@x402-lookout/contracts/preflight/schemas";
import type { VerdictClaims } from "@x402-lookout/contracts/verdict";
import { verdictClaims, type SignedFields, type VerdictSigner } from "../verdict-signing/index.js";
import type { Subject } from "./preflight-report.js";
import type { ReportTarget } from "./report-target.js";

type View = VerdictClaims["view"];

/**
 * The last step of every verdict product (preflight, trial, batch element, forensics): the
 * agent's checked quote beside the verdict, and the verdict's signature (docs/verdicts.md).
 */
export function createSeal(sign: VerdictSigner) {
  const signatureOf = (answer: SignedFields, url: string, s: Subject, view: View, observedAt: string) =>
    sign(verdictClaims(answer, { url, method: s.method, requirementDigest: s.quote?.requirement_digest ?? null, view, observedAt }));
  const quoteOf = (s: Subject) => (s.quote ? { quote: s.quote } : {});

  return {
    async one<A extends SignedFields & { observed_at: string }>(answer: A, target: ReportTarget, s: Subject, view: View): Promise<A & { signature: string }> {
      return { ...answer, ...quoteOf(s), signature: await signatureOf(answer, target.url, s, view, answer.observed_at) };
    },

    /** Each element signed with the envelope's observed_at; `subjects` in the order of `results`. */
    async batch(envelope: BatchEnvelope, subjects: readonly Subject[]): Promise<SignedBatchEnvelope> {
      const results = await Promise.all(
        envelope.results.map(async (r, i) => ({
          ...r,
          ...quoteOf(subjects[i]!),
          signature: await signatureOf(r, r.url, subjects[i]!, "preflight", envelope.observed_at),
        })),
      );
      return { ...envelope, results };
    },
  };
}

export type Seal = ReturnType<typeof createSeal>;
