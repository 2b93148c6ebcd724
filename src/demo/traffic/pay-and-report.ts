import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { PrivateKeyAccount } from "viem/accounts";
import { judgePaidAnswer, sendOutcomeReport, signOutcomeReport } from "@x402-lookout/client";
import type { DemoEndpoint } from "../types.js";

export interface Paid {
  tx: string;
  outcome: ReturnType<typeof judgePaidAnswer>;
  status: number;
}

/** Pays one listing as an agent does (@x402/fetch), never more than its listed amount; null when nothing settled. */
export async function payOnce(account: PrivateKeyAccount, network: string, e: DemoEndpoint): Promise<Paid | null> {
  const client = new x402Client().register(network as `${string}:${string}`, new ExactEvmScheme(account));
  client.onBeforePaymentCreation(async ({ selectedRequirements: r }) =>
    r.network !== network || BigInt(r.amount) > BigInt(e.amount)
      ? { abort: true, reason: `demo traffic: ${r.amount} on ${r.network} is not the listing's` }
      : undefined,
  );
  const init = e.method === "POST" ? { method: "POST", headers: { "content-type": "application/json" }, body: "{}" } : { method: "GET" };
  const res = await wrapFetchWithPayment(fetch, client)(e.url, init);
  const body = await res.text();
  const receipt = res.headers.get("payment-response");
  const settled = receipt ? decodePaymentResponseHeader(receipt) : null;
  if (!settled?.success || !settled.transaction) return null;
  return { tx: settled.transaction, outcome: judgePaidAnswer(res.status, body), status: res.status };
}

/** The first report waits this long: the indexer (every 5 s in demo mode) reads the settlement's block first. */
const FIRST_REPORT_MS = 6_000;

/** Signs the payer's report (EIP-712) and sends it after the indexer's next tick; returns the final status. */
export async function report(serviceUrl: string, account: PrivateKeyAccount, e: DemoEndpoint, paid: Paid, detail: string): Promise<number> {
  await new Promise((r) => setTimeout(r, FIRST_REPORT_MS));
  const body = await signOutcomeReport(account, { url: e.url, tx: paid.tx, outcome: paid.outcome, detail });
  return (await sendOutcomeReport(serviceUrl, body)).status;
}
