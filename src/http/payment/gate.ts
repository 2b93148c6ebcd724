import type { Context } from "hono";
import { x402ResourceServer, type FacilitatorClient } from "@x402/core/server";
import type { PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { nowOrLater } from "../../lib/retry-later.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { identifierHash, type ChainReader, type PaymentLedger, type SmartSignatureCheck } from "../../services/index.js";
import { ApiError } from "../errors.js";
import type { HandlerContext } from "../registry.js";
import { paymentRequiredResponse, unpaidMessage } from "./challenge.js";
import type { CreditBypass } from "./credit-bypass.js";
import { paymentRequiredExtensions } from "./discovery.js";
import { describe, facilitatorCall, refusedVerify, brief } from "./facilitator-call.js";
import { readPayment } from "./read-payment.js";
import { answerKnownPayment } from "./replay.js";
import { settleAnswer } from "./settle.js";
import { claimPayment } from "./claim.js";
import { identifierConflict } from "./payment-errors.js";
import { reasonLabel, type PaymentMetrics } from "../metrics.js";
import { createCreditContract } from "@x402-lookout/contracts/credits/routes";
import type { AppEnv } from "../app-env.js";
import type { PaidRoute, PaymentGate, PaymentRequired } from "./types.js";

export { FacilitatorUnavailable } from "./facilitator-call.js";

export interface GateOptions {
  network: string;
  payTo: string;
  asset: { address: string; name: string; version: string };
  publicBaseUrl: string;
  facilitator: FacilitatorClient;
  routes: readonly PaidRoute[];
  ledger: PaymentLedger;
  credits?: CreditBypass;
  /** Reads authorization outcomes when a settlement is refused; checks contract-wallet signatures. */
  chain?: ChainReader;
  smartSignatures?: SmartSignatureCheck;
  /** Facilitator calls slower than this stop waiting (default 20 s). */
  facilitatorTimeoutMs?: number;
  /** Chain time, for authorization validity windows (default: this machine's clock). */
  chainNowSeconds?: () => number;
  /** The process's payment series (docs/operations.md). */
  metrics?: PaymentMetrics;
}

const MAX_TIMEOUT_SECONDS = 300;
const FACILITATOR_TIMEOUT_MS = 20_000;

/**
 * The x402 v2 gate; business code never sees any of it. Per request: credit bypass -> 402, or
 * the payment checked locally -> an authorization the ledger knows is answered from the ledger ->
 * verify -> claim (replays stop here) -> handler -> settle only an answer below 400.
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
    extensions: { ...paymentRequiredExtensions(route, opts.publicBaseUrl) },
  });
  const timeoutMs = opts.facilitatorTimeoutMs ?? FACILITATOR_TIMEOUT_MS;
  const chainNow = () => BigInt(Math.floor(opts.chainNowSeconds?.() ?? Date.now() / 1000));
  const creditsFor = (route: PaidRoute) => (route.acceptsCredits ? opts.credits : undefined);
  const paymentHeader = (c: Context) => c.req.header("payment-signature") ?? c.req.header("x-payment");
  const offersCredit = (c: Context, route: PaidRoute): boolean => creditsFor(route) !== undefined && c.req.header("x-credit-id") !== undefined;

  const m = opts.metrics;
  const failed = (stage: string, reason: string | undefined) => m?.failed.inc({ stage, reason: reasonLabel(reason) });

  async function charge(c: Context, route: PaidRoute, hctx: HandlerContext, produce: () => Promise<Response>): Promise<Response> {
    const viaCredit = await creditsFor(route)?.tryPay(c, route, hctx, produce);
    if (viaCredit) return viaCredit;
    const challenge = (error: string) => {
      m?.challenges.inc({ route: route.id });
      return paymentRequiredResponse(c, paymentRequired(route, error));
    };
    const header = paymentHeader(c);
    if (!header) return challenge(unpaidMessage(route.price));

    const read = await readPayment(header, requirementFor(route), server, { nowSeconds: chainNow(), smart: opts.smartSignatures });
    if (!read.ok) {
      failed("check", read.message.split(":")[0]);
      if (read.status === 400) throw new ApiError(400, "invalid_payment_identifier", read.message);
      return challenge(read.message);
    }
    const payment = read.payment;
    const idHash = payment.identifier ? identifierHash(payment.identifier) : null;
    if (idHash) {
      const first = await opts.ledger.byIdentifier(idHash);
      if (first && first.key !== payment.key) throw identifierConflict();
    }
    const known = await opts.ledger.byAuthorization(payment.key);
    const replayed = known && (await answerKnownPayment(c, known, payment, route, hctx, { ledger: opts.ledger, chain: opts.chain }));
    if (replayed) return replayed;

    const verified = await facilitatorCall("verify", timeoutMs, () =>
      server.verifyPayment(payment.forFacilitator, payment.requirement).catch(refusedVerify),
    ).catch((err: unknown) => {
      failed("verify", "facilitator_unavailable");
      throw err;
    });
    if (!verified.isValid) {
      failed("verify", verified.invalidReason ?? "rejected");
      return challenge(`invalid_payment: ${verified.invalidReason ?? "rejected"}${brief(verified.invalidMessage)}`);
    }
    m?.verified.inc({ route: route.id });
    const payer = verified.payer ?? payment.signed.authorization.from;
    const claim = await claimPayment(opts.ledger, payment, route.id, payer, idHash, hctx);
    const req = payment.requirement;
    hctx.payment = { kind: "x402", payer, network: req.network, amountAtomic: req.amount, paymentId: claim.id };
    // A release the database refuses (it failed the answer too) is retried once it is back.
    const release = (reason: string) => nowOrLater(`release payment claim ${claim.id}`, () => opts.ledger.release(claim, reason), hctx.log);
    let response: Response;
    try {
      response = await produce();
    } catch (err) {
      failed("answer", "error");
      await release(describe(err));
      throw err;
    }
    if (response.status >= 400) {
      failed("answer", `status_${response.status}`);
      await release(`handler answered ${response.status}`);
      return response;
    }
    const answer = await settleAnswer(c, { server, ledger: opts.ledger, timeoutMs, chain: opts.chain, metrics: m }, claim, payment, response, hctx, challenge);
    if ((c as Context<AppEnv>).get("settled")) {
      m?.settled.inc({ route: route.id });
      if (route.id === createCreditContract.id) m?.creditBundlesIssued.inc();
    }
    return answer;
  }

  return { charge, offersCredit, carriesPayment: (c, route) => paymentHeader(c) !== undefined || offersCredit(c, route), paymentRequired };
}
