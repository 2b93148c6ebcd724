import type { Context } from "hono";
import { x402ResourceServer, type FacilitatorClient } from "@x402/core/server";
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from "@x402/core/http";
import { SettleError, VerifyError, type PaymentPayload, type PaymentRequirements, type SettleResponse, type VerifyResponse } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import type { Logger } from "../../lib/log.js";
import { nowOrLater } from "../../lib/retry-later.js";
import type { PaymentLedger } from "../../services/payments/ledger.js";
import type { AppEnv } from "../app-env.js";
import { ApiError } from "../errors.js";
import type { HandlerContext } from "../registry.js";
import { usdcToAtomic } from "../../lib/usdc.js";
import { paymentRequiredResponse } from "./challenge.js";
import { exactEvmPayloadProblem, isObject } from "./payload-shape.js";
import type { CreditBypass } from "./credit-bypass.js";
import type { PaidRoute, PaymentGate, PaymentRequired } from "./types.js";

export interface GateOptions {
  network: string;
  payTo: string;
  asset: { address: string; name: string; version: string };
  publicBaseUrl: string;
  facilitator: FacilitatorClient;
  routes: readonly PaidRoute[];
  ledger: PaymentLedger;
  credits?: CreditBypass;
  log: Logger;
  /** Facilitator calls slower than this answer 503 rather than hold the agent (default 20 s). */
  facilitatorTimeoutMs?: number;
}

const MAX_TIMEOUT_SECONDS = 300;
const FACILITATOR_TIMEOUT_MS = 20_000;

/**
 * The x402 v2 gate: challenge, verify, run, settle. Business code never sees any of it.
 * Order per request: validated input (by the mount) -> credit bypass -> 402 or verify ->
 * claim the authorization (replays stop here) -> handler -> settle only an answer below 400.
 */
export async function createPaymentGate(opts: GateOptions): Promise<PaymentGate> {
  const server = new x402ResourceServer(opts.facilitator).register(opts.network as `${string}:${string}`, new ExactEvmScheme());
  await server.initialize();

  const requirements = new Map<string, PaymentRequirements>();
  for (const route of opts.routes) {
    const [req] = await server.buildPaymentRequirements({
      scheme: "exact",
      network: opts.network as `${string}:${string}`,
      payTo: opts.payTo,
      price: { asset: opts.asset.address, amount: usdcToAtomic(route.price), extra: { name: opts.asset.name, version: opts.asset.version } },
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    });
    requirements.set(route.id, req!);
  }

  const requirementFor = (route: PaidRoute): PaymentRequirements => {
    const req = requirements.get(route.id);
    if (!req) throw new Error(`route ${route.id} was not registered with the payment gate`);
    return req;
  };

  const paymentRequired = (route: PaidRoute, error?: string): PaymentRequired => ({
    x402Version: 2,
    ...(error ? { error } : {}),
    resource: { url: `${opts.publicBaseUrl}${route.path}`, description: route.summary, mimeType: "application/json" },
    accepts: [requirementFor(route) as PaymentRequired["accepts"][number]],
  });

  const timeoutMs = opts.facilitatorTimeoutMs ?? FACILITATOR_TIMEOUT_MS;
  const facilitatorCall = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        call(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new FacilitatorUnavailable(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      if (err instanceof FacilitatorUnavailable) throw err;
      throw new FacilitatorUnavailable(`${what} failed: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  };

  const creditsFor = (route: PaidRoute) => (route.acceptsCredits ? opts.credits : undefined);
  const offersCredit = (c: Context, route: PaidRoute): boolean => creditsFor(route) !== undefined && c.req.header("x-credit-id") !== undefined;

  async function charge(c: Context, route: PaidRoute, hctx: HandlerContext, produce: () => Promise<Response>): Promise<Response> {
    const ctx = c as Context<AppEnv>;
    const credits = creditsFor(route);
    if (credits) {
      const viaCredit = await credits.tryPay(ctx, route, hctx, produce);
      if (viaCredit) return viaCredit;
    }

    const header = c.req.header("payment-signature") ?? c.req.header("x-payment");
    const challenge = (error: string) => paymentRequiredResponse(c, paymentRequired(route, error));
    if (!header) return challenge(unpaidMessage(route.price));

    let payload: PaymentPayload;
    try {
      const decoded: unknown = decodePaymentSignatureHeader(header);
      if (!isObject(decoded)) throw new Error("not an object");
      payload = decoded as unknown as PaymentPayload;
    } catch {
      return challenge("invalid_payment: the PAYMENT-SIGNATURE header is not a base64-encoded x402 PaymentPayload");
    }
    if (payload.x402Version !== 2) return challenge(`invalid_payment: x402Version ${String(payload.x402Version).slice(0, 40)} is not supported; use version 2`);

    const req = requirementFor(route);
    const match = isObject(payload.accepted) ? server.findMatchingRequirements([req], payload) : undefined;
    if (!match) {
      return challenge(`invalid_payment: the payment does not match the accepted requirement (scheme exact, network ${req.network}, asset ${req.asset}, amount ${req.amount}, payTo ${req.payTo})`);
    }
    const malformed = exactEvmPayloadProblem(payload.payload);
    if (malformed) return challenge(`invalid_payment: not a signed EIP-3009 authorization: ${malformed}`);

    const existing = await opts.ledger.find(payload);
    if (existing) {
      if (existing.status === "settled" && route.onReplay) await route.onReplay(existing.id, hctx);
      return challenge("invalid_payment: this payment authorization was already used (replay)");
    }

    const verified = await facilitatorCall("verify", () => server.verifyPayment(payload, match).catch(refusedVerify));
    if (!verified.isValid) {
      return challenge(`invalid_payment: ${verified.invalidReason ?? "rejected"}${brief(verified.invalidMessage)}`);
    }
    const payer = verified.payer ?? null;

    let claim: Awaited<ReturnType<PaymentLedger["claim"]>>;
    try {
      claim = await opts.ledger.claim({ payload, route: route.id, requestId: hctx.requestId, payer, network: match.network, amountAtomic: match.amount });
    } catch (err) {
      // The claim may have committed before the database dropped: release it if it did, once the
      // database answers, so the same authorization can pay for a retry.
      await nowOrLater(`release unconfirmed payment claim of request ${hctx.requestId}`, () => opts.ledger.releaseUnconfirmed(payload, hctx.requestId, describe(err)), hctx.log);
      throw err;
    }
    if (!claim) return challenge("invalid_payment: this payment authorization was already used (replay)");

    hctx.payment = { kind: "x402", payer, network: match.network, amountAtomic: match.amount, paymentId: claim.id };
    let response: Response;
    // A release the database refuses (it failed the answer too) is retried once it is back, so
    // the same authorization can pay for a retry; until then it reads as already used.
    const release = (reason: string) => nowOrLater(`release payment claim ${claim.id}`, () => opts.ledger.release(claim, reason), hctx.log);
    try {
      response = await produce();
    } catch (err) {
      await release(describe(err));
      throw err;
    }
    if (response.status >= 400) {
      await release(`handler answered ${response.status}`);
      return response;
    }

    let settled;
    try {
      settled = await facilitatorCall("settle", () => server.settlePayment(payload, match).catch(refusedSettle));
    } catch (err) {
      await opts.ledger.settleFailed(claim, describe(err));
      opts.log.warn({ route: route.id, err: describe(err) }, "settlement failed; answer withheld");
      throw err;
    }
    if (!settled.success) {
      await opts.ledger.settleFailed(claim, settled.errorReason ?? "settlement failed");
      return challenge(`settlement_failed: ${settled.errorReason ?? "the facilitator refused to settle"}${brief(settled.errorMessage)}; nothing was charged and the answer is withheld`);
    }
    ctx.set("settled", true);
    await opts.ledger.settled(claim, { transaction: settled.transaction, network: settled.network, payer: settled.payer ?? payer });
    response.headers.set("PAYMENT-RESPONSE", encodePaymentResponseHeader(settled));
    response.headers.set("Access-Control-Expose-Headers", "PAYMENT-RESPONSE");
    return response;
  }

  return { charge, offersCredit, paymentRequired };
}

/** The facilitator did not answer: a 503 that never settles (spec 5.5). */
export class FacilitatorUnavailable extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(503, "facilitator_unavailable", `payment facilitator unavailable: ${message}; nothing was settled, retry shortly`, { payment_settled: false, settlement_skipped: true, retry_after_seconds: 30 }, { "retry-after": "30" });
    if (options?.cause) this.cause = options.cause;
  }
}

/** x402 SDK clients cap one payment at $1 unless configured otherwise (spendControls). */
const SDK_DEFAULT_SPEND_CAP_USDC = 1;

function unpaidMessage(price: string): string {
  const base = `Payment required: ${price} USDC. Sign the accepted requirement and retry with the PAYMENT-SIGNATURE header.`;
  return Number(price) >= SDK_DEFAULT_SPEND_CAP_USDC
    ? `${base} This is at or above the x402 SDK's default $1 per-payment cap: raise it first, e.g. x402Client.fromConfig({ ..., spendControls: { maxAmountPerPayment: "$${price}" } }).`
    : base;
}

/** A remote facilitator reports a refusal by throwing; it is a 402, not an outage. */
function refusedVerify(err: unknown): VerifyResponse {
  if (err instanceof VerifyError) return { isValid: false, invalidReason: err.invalidReason, invalidMessage: err.invalidMessage, payer: err.payer };
  throw err;
}
function refusedSettle(err: unknown): SettleResponse {
  if (err instanceof SettleError) return { success: false, errorReason: err.errorReason, errorMessage: err.errorMessage, transaction: err.transaction, network: err.network };
  throw err;
}

/** Facilitators return multi-line revert dumps; the client gets the first line. */
const brief = (message: string | undefined) => (message ? `: ${message.split("\n")[0]!.slice(0, 200)}` : "");

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

