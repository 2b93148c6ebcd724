import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { Context } from "hono";
import { BIG_CHALLENGE_OTHER_ACCEPTS, DIES_EARLY_AFTER_MS } from "../constants.js";
import type { ListingSpec } from "../plan/listing-spec.js";
import { requestInput } from "./behaviours.js";

/** What an API that validates before it quotes answers (FastAPI's and zod's shape, abridged). */
export function unprocessable(c: Context, missing: readonly string[]): Response {
  const detail = missing.map((field) => ({ loc: ["body", field], msg: "Field required", type: "missing" }));
  return c.json({ error: "invalid_request", message: missing.length ? `missing: ${missing.join(", ")}` : "a session is required", detail }, 422);
}

/** The declared input keys (query for GET, JSON body for POST) a request lacks. */
export async function missingInput(c: Context, spec: ListingSpec): Promise<string[]> {
  const got = await requestInput(c);
  return Object.keys(spec.input).filter((k) => got[k] === undefined || got[k] === "");
}

/** First request per path, on the fleet's clock: the early dier fails from DIES_EARLY_AFTER_MS after it. */
export function earlyDeath(now: () => Date): (path: string) => boolean {
  const first = new Map<string, number>();
  return (path) => {
    const at = now().getTime();
    if (!first.has(path)) first.set(path, at);
    return at - first.get(path)! >= DIES_EARLY_AFTER_MS;
  };
}

/**
 * A large provider's challenge: forty accepts on other chains before the SDK's own (the one that
 * prices the listing), beside the Bazaar extension its long output example fills. Only the
 * header grows; payment still goes through the SDK's middleware on the listing's own terms.
 */
export function enlargeChallenge(c: Context): void {
  const header = c.res.status === 402 ? c.res.headers.get("payment-required") : null;
  if (!header) return;
  const challenge = decodePaymentRequiredHeader(header);
  const own = challenge.accepts[0]!;
  const others = Array.from({ length: BIG_CHALLENGE_OTHER_ACCEPTS }, (_, i) => ({
    ...own,
    network: `eip155:${1000 + i}` as typeof own.network,
    asset: `0x${(i + 1).toString(16).padStart(40, "0")}`,
    amount: String(1000 + i),
  }));
  const headers = new Headers(c.res.headers);
  headers.set("payment-required", encodePaymentRequiredHeader({ ...challenge, accepts: [...others, ...challenge.accepts] }));
  const body = c.res.body;
  c.res = undefined; // Hono's setter would copy the old headers over the new ones
  c.res = new Response(body, { status: 402, headers });
}
