import { readPaymentRequired, requirementDigest } from "@x402-lookout/contracts/quote";
import { BODY_PREFIX_BYTES, type DeliveryEvidence } from "./evidence.js";
import type { PaidAnswer } from "./judge.js";
import type { Exchange, Signed } from "./payer-port.js";

/** The most of an answer read: enough to hash and judge a real answer, never a download. */
export const MAX_READ_BYTES = 1024 * 1024;

/** The body up to MAX_READ_BYTES; the rest is not read (the connection is dropped). */
export async function readCapped(res: Response): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
    size += value.length;
    if (size >= MAX_READ_BYTES) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_READ_BYTES);
}

/** The 402 the check paid: its PAYMENT-REQUIRED header decoded, the requirement signed and the digest its verdict was bound to. */
export async function challengeEvidence(first: Exchange | undefined, signed: Signed | null): Promise<DeliveryEvidence["challenge"]> {
  if (!first || first.status === null) return null;
  const header = first.headers["payment-required"];
  let paymentRequired: unknown = null;
  if (header) {
    try {
      paymentRequired = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    } catch {
      paymentRequired = { unreadable: header.slice(0, 200) };
    }
  }
  const narrowed = signed && paymentRequired ? readPaymentRequired({ ...(paymentRequired as object), accepts: [signed.requirement] })?.accepts[0] : undefined;
  const digest = narrowed ? await requirementDigest(narrowed) : null;
  return { status: first.status, payment_required: paymentRequired, requirement: signed?.requirement ?? null, requirement_digest: digest };
}

/** What came back to the paid request: status, headers, size, hash and the first bytes. */
export function answerEvidence(answer: PaidAnswer | null, last: Exchange | undefined): DeliveryEvidence["answer"] {
  if (!answer) return null;
  return {
    status: answer.status,
    headers: last?.headers ?? {},
    content_type: answer.contentType,
    size: answer.body.length,
    sha256: answer.sha256,
    first_bytes_base64: answer.body.subarray(0, BODY_PREFIX_BYTES).toString("base64"),
    truncated: answer.body.length >= MAX_READ_BYTES,
  };
}
