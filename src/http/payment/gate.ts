import { x402ResourceServer, type FacilitatorClient } from "@x402/core/server";
import type { PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { routeContracts } from "@x402-lookout/contracts";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { identifierHash, type ChainReader, type PaymentLedger, type SmartSignatureCheck } from "../../services/index.js";
import { ApiError } from "../errors.js";
import { reasonLabel, type PaymentMetrics } from "../metrics.js";
import { challengeAnswer, unpaidMessage } from "./challenge.js";
import { claimPayment } from "./claim.js";
import type { CreditBranch } from "./credit.js";
import { paymentRequiredExtensions } from "./discovery.js";
import { brief, describe, facilitatorCall, refusedVerify } from "./facilitator-call.js";
import { identifierConflict } from "./payment-errors.js";
import { readPayment } from "./read-payment.js";
import { decideKnownPayment } from "./replay.js";
import { releasePayment, settlePayment } from "./settle.js";
import type { Answer, Decision, PaidRoute, PaymentGate, PaymentRequest, PaymentRequired } from "./types.js";

export interface GateOptions {
  network: string;
  payTo: string;
  asset: { address: string; name: string; version: string };
  publicBaseUrl: string;
  facilitator: FacilitatorClient;
  routes: readonly PaidRoute[];
  ledger: PaymentLedger;
  /** The credit branch (./credit.ts): without it, only x402 pays. */
  credits?: CreditBranch;
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
 * The payment core: no HTTP framework, only values. decide(): a credit id the route takes and
 * the bundle can pay -> the call is spent; else the payment checked locally -> an authorization
 * the ledger knows is answered from the ledger -> verify -> claim (replays stop here). Then the
 * adapter runs the handler, and settle() charges only an answer below 400.
 */
export async function createPaymentGate(opts: GateOptions): Promise<PaymentGate> {
  const network = opts.network as `${string}:${string}`;
  const server = new x402ResourceServer(opts.facilitator).register(network, new ExactEvmScheme());
  await server.initialize();
  const requirements = new Map<string, PaymentRequirements>();
  for (const route of opts.routes) {
    const price = { asset: opts.asset.address, amount: usdcToAtomic(route.price), extra: { name: opts.asset.name, version: opts.asset.version } };
    const [req] = await server.buildPaymentRequirements({ scheme: "exact", network, payTo: opts.payTo, price, maxTimeoutSeconds: MAX_TIMEOUT_SECONDS });
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
  const settleDeps = { server, ledger: opts.ledger, timeoutMs, chain: opts.chain, metrics: opts.metrics };
  const chainNow = () => BigInt(Math.floor(opts.chainNowSeconds?.() ?? Date.now() / 1000));
  const paymentHeader = (req: Pick<PaymentRequest, "header">) => req.header("payment-signature") ?? req.header("x-payment");
  const offersCredit = (req: Pick<PaymentRequest, "header">, route: PaidRoute) =>
    route.acceptsCredits === true && opts.credits !== undefined && req.header("x-credit-id") !== undefined;

  const m = opts.metrics;
  const failed = (stage: string, reason: string | undefined) => m?.failed.inc({ stage, reason: reasonLabel(reason) });
  const challenge = (route: PaidRoute, error: string) => {
    m?.challenges.inc({ route: route.id });
    return challengeAnswer(paymentRequired(route, error));
  };
  const refused = (answer: Answer): Decision => ({ kind: "refused", answer });

  async function decideX402(req: PaymentRequest, route: PaidRoute): Promise<Decision> {
    const header = paymentHeader(req);
    if (!header) return refused(challenge(route, unpaidMessage(route.price)));
    const read = await readPayment(header, requirementFor(route), server, { nowSeconds: chainNow(), smart: opts.smartSignatures });
    if (!read.ok) {
      failed("check", read.message.split(":")[0]);
      return refused(read.status === 400 ? new ApiError(400, "invalid_payment_identifier", read.message) : challenge(route, read.message));
    }
    const payment = read.payment;
    const idHash = payment.identifier ? identifierHash(payment.identifier) : null;
    if (idHash) {
      const first = await opts.ledger.byIdentifier(idHash);
      if (first && first.key !== payment.key) return refused(identifierConflict());
    }
    const known = await opts.ledger.byAuthorization(payment.key);
    const replayed = known && (await decideKnownPayment(known, payment, route, req.requestId, { ledger: opts.ledger, chain: opts.chain }));
    if (replayed) return replayed;

    const verify = () => server.verifyPayment(payment.forFacilitator, payment.requirement).catch(refusedVerify);
    // facilitatorCall fails only with FacilitatorUnavailable, a 503 that settles nothing.
    const verified = await facilitatorCall("verify", timeoutMs, verify).catch((err: ApiError) => err);
    if (verified instanceof ApiError) {
      failed("verify", "facilitator_unavailable");
      return refused(verified);
    }
    if (!verified.isValid) {
      failed("verify", verified.invalidReason ?? "rejected");
      return refused(challenge(route, `invalid_payment: ${verified.invalidReason ?? "rejected"}${brief(verified.invalidMessage)}`));
    }
    m?.verified.inc({ route: route.id });
    const payer = verified.payer ?? payment.signed.authorization.from;
    const claim = await claimPayment(opts.ledger, payment, route.id, payer, idHash, req);
    if (claim instanceof ApiError) return refused(claim);
    const { network, amount } = payment.requirement;
    return { kind: "x402", payment: { kind: "x402", payer, network, amountAtomic: amount, paymentId: claim.id }, checked: payment, claim };
  }

  return {
    paymentRequired,
    offersCredit,
    carriesPayment: (req, route) => paymentHeader(req) !== undefined || offersCredit(req, route),
    async decide(req, route) {
      // Only a request that offers a credit id reaches the credit branch; an unusable bundle falls through.
      const viaCredit = offersCredit(req, route) ? await opts.credits!.decide(req) : null;
      return viaCredit ?? decideX402(req, route);
    },
    async settle(covered, route, answer, req) {
      if (covered.kind === "credit") return opts.credits!.settle(covered, route, answer, req);
      if (answer.status >= 400) {
        failed("answer", `status_${answer.status}`);
        await releasePayment(opts.ledger, covered, `handler answered ${answer.status}`, req);
        return { kind: "kept", settled: false, headers: {} };
      }
      const settlement = await settlePayment(settleDeps, covered, answer, req, (error) => challenge(route, error));
      if (settlement.kind === "kept" && settlement.settled) {
        m?.settled.inc({ route: route.id });
        if (route.id === routeContracts.credits.id) m?.creditBundlesIssued.inc();
      }
      return settlement;
    },
    async abandon(covered, route, err, req) {
      if (covered.kind === "credit") return opts.credits!.abandon(covered, req);
      failed("answer", "error");
      await releasePayment(opts.ledger, covered, describe(err), req);
    },
  };
}
