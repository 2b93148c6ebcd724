import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { withQuery } from "../probes/probe-query.js";
import { checkInput } from "./input-variant.js";
import { judge, type PaidAnswer } from "./judge.js";
import { declaredOutputSchema } from "./output-schema.js";
import type { PaidCall, Signed } from "./payer-port.js";
import type { Candidate } from "./candidates.js";
import { answerEvidence, challengeEvidence, readCapped } from "./answer.js";

/** A paid request gets this long for its answer; the whole check stays inside CHECK_RUN_MS. */
export const CHECK_TIMEOUT_MS = 20_000;

const sha256 = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
const obj = (v: unknown) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>) : undefined);

/**
 * Runs check `id` of candidate `c` (its budget already held): pays through the payer, reads the
 * answer, and stores what came with the judgment it earns if the chain shows the payment; the
 * settlement itself is read by settleCheck. Nothing signed: the check ends skipped, spending nothing.
 */
export async function runCheck(db: Kysely<Database>, open: (onSigned: (s: Signed) => Promise<void>) => PaidCall, c: Candidate, id: string): Promise<void> {
  const schema = obj(obj(obj(c.raw)?.extensions)?.bazaar)?.schema;
  const input = checkInput(c.declaredInput, schema, c.checksSoFar);
  const url = withQuery(c.url, input.query);
  const headers: Record<string, string> = input.body === null ? {} : { "content-type": "application/json" };
  const pay = open((s) => markSigned(db, id, s));
  const started = performance.now();
  let answer: PaidAnswer | null = null;
  let failure: string | undefined;
  try {
    const res = await pay.fetch(url, {
      method: c.method,
      headers,
      ...(input.body === null ? {} : { body: input.body }),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    const body = await readCapped(res);
    answer = { status: res.status, contentType: res.headers.get("content-type"), body, sha256: sha256(body) };
  } catch (err) {
    failure = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError") ? "timeout" : "error";
    if (!pay.signed()) return skip(db, id, err, pay.exchanges[0]?.status ?? null);
  }
  const signed = pay.signed();
  const evidence = {
    challenge: await challengeEvidence(pay.exchanges[0], signed),
    request: { method: c.method, url, headers: pay.exchanges.at(-1)?.requestHeaders ?? headers, body: input.body, input: input.kind },
    answer: answerEvidence(answer, pay.exchanges.at(-1)),
    timings: {
      challenge_ms: pay.exchanges[0]?.ms ?? null,
      paid_request_ms: signed ? (pay.exchanges[1]?.ms ?? null) : null,
      total_ms: Math.round(performance.now() - started),
    },
    settlement: { receipt: receiptOf(pay.exchanges.at(-1)?.headers), tx: null, chain: null, amount_atomic: signed?.amount ?? null },
  };
  if (!signed) return skipWith(db, id, answer ? `no_challenge_${answer.status}` : "no_challenge", evidence);
  const inputSha = sha256(`${c.method} ${url}\n${input.body ?? ""}`);
  // Canned is judged only where the listing itself declares inputs that differ (input-variant.ts).
  const varies = checkInput(c.declaredInput, schema, 1).kind === "variant";
  const other = varies ? (c.delivered.find((d) => d.input_sha256 !== inputSha)?.body_sha256 ?? null) : null;
  const ifSettled = judge({ settled: true, answer, outputSchema: declaredOutputSchema(c.raw), otherInputBody: other, ...(failure ? { failure } : {}) });
  await sql`update delivery_checks set body_sha256 = ${answer?.sha256 ?? null}, input_sha256 = ${inputSha},
      evidence = ${JSON.stringify({ ...evidence, judgment_if_settled: ifSettled, answered: true })}::jsonb where id = ${id}`.execute(db);
}

/** Before the paid request leaves: the authorization is in the ledger, so a crash after it is resolved from the chain. */
export async function markSigned(db: Kysely<Database>, id: string, s: Signed): Promise<void> {
  await sql`update delivery_checks set state = 'paying', payer = ${s.payer}, pay_to = ${s.payTo}, asset = ${s.asset}, network = ${s.network},
      auth_nonce = ${s.nonce}, valid_before = ${s.validBefore.toISOString()}::timestamptz, reserved_atomic = ${s.amount}::numeric
    where id = ${id}`.execute(db);
}

// Refused by our own policy or the SDK's spend controls: the quote; no answer at all: unreachable.
function skip(db: Kysely<Database>, id: string, err: unknown, firstStatus: number | null): Promise<void> {
  const message = err instanceof Error ? `${err.message} ${err.cause instanceof Error ? err.cause.message : ""}` : String(err);
  const reason = /x402 Lookout|spendControls/.test(message) ? "quote" : firstStatus === null ? "unreachable" : "error";
  return skipWith(db, id, reason, { error: message.slice(0, 500) });
}

async function skipWith(db: Kysely<Database>, id: string, reason: string, evidence: object): Promise<void> {
  await sql`update delivery_checks set state = 'done', outcome = 'skipped', reason = ${reason}, reserved_atomic = 0, finished_at = now(),
      evidence = ${JSON.stringify(evidence)}::jsonb where id = ${id}`.execute(db);
}

function receiptOf(headers: Record<string, string> | undefined): unknown {
  const raw = headers?.["payment-response"];
  if (!raw) return null;
  try {
    return JSON.parse(Buffer.from(raw, "base64").toString("utf8"));
  } catch {
    return { unreadable: raw.slice(0, 200) };
  }
}
