import type { DeliveryOutcome } from "../../db/schema.js";
import { outputErrors } from "./output-schema.js";

/** The answer to the paid request as read (the body up to the read cap); null: none came (time-out, reset). */
export interface PaidAnswer {
  status: number;
  contentType: string | null;
  body: Buffer;
  sha256: string;
}

export interface JudgeInput {
  /** The chain shows the signed authorization used (the money moved). */
  settled: boolean;
  answer: PaidAnswer | null;
  /** The listing's declared output schema, if any (output-schema.ts). */
  outputSchema: Record<string, unknown> | null;
  /** The newest earlier delivered body of this listing for another input (its hash), when there is one. */
  otherInputBody: string | null;
  /** Why no answer came, when none did (timeout, reset). */
  failure?: string;
}

export interface Judgment {
  outcome: DeliveryOutcome;
  reason: string | null;
  schema_errors?: string[];
}

// Short bodies that are only a stand-in for content; longer text is judged by its schema, not guessed at.
const PLACEHOLDER = /^\s*("?)(null|\{\s*\}|\[\s*\]|""|ok|todo|tbd|placeholder|lorem ipsum.*|mock.*|sample.*|dummy.*|test|coming soon|not implemented)\1\s*$/is;
const PLACEHOLDER_MAX_BYTES = 200;

/**
 * One paid check's outcome (decision 0051). Settled: a refusal (401, 403, another 402) is
 * refused_after_payment; any other error status, no answer, an empty, placeholder or canned body
 * is undelivered; a JSON body off the declared schema is invalid_output; else delivered. Not settled:
 * not_settled, whatever came (nothing was paid, so nothing is judged).
 */
export function judge({ settled, answer, outputSchema, otherInputBody, failure = "no_answer" }: JudgeInput): Judgment {
  if (!settled) return { outcome: "not_settled", reason: answer ? `status_${answer.status}` : failure };
  if (!answer) return { outcome: "undelivered", reason: failure };
  if ([401, 402, 403].includes(answer.status)) return { outcome: "refused_after_payment", reason: `status_${answer.status}` };
  if (answer.status >= 300) return { outcome: "undelivered", reason: `status_${answer.status}` };
  if (answer.body.length === 0 || answer.body.toString("utf8").trim() === "") return { outcome: "undelivered", reason: "empty_body" };
  if (answer.body.length <= PLACEHOLDER_MAX_BYTES && PLACEHOLDER.test(answer.body.toString("utf8"))) return { outcome: "undelivered", reason: "placeholder" };
  if (otherInputBody !== null && otherInputBody === answer.sha256) return { outcome: "undelivered", reason: "canned" };
  if (outputSchema) {
    const errors = outputErrors(outputSchema, answer.body.toString("utf8"));
    if (errors && errors.length > 0) return { outcome: "invalid_output", reason: "schema", schema_errors: errors };
  }
  return { outcome: "delivered", reason: null };
}
