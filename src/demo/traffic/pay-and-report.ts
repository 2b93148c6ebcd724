import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { PrivateKeyAccount } from "viem/accounts";
import { OUTCOME_REPORT_DOMAIN, OUTCOME_REPORT_TYPES, outcomeReportMessage } from "@x402-lookout/contracts/outcomes/typed-data";
import type { DemoEndpoint } from "../types.js";
import { judgeAnswer } from "./targets.js";

export interface Paid {
  tx: string;
  outcome: ReturnType<typeof judgeAnswer>;
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
  return { tx: settled.transaction, outcome: judgeAnswer(res.status, body), status: res.status };
}

/** The first report waits this long: the indexer (every 5 s in demo mode) reads the settlement's block first. */
const FIRST_REPORT_MS = 6_000;
const RETRY_MS = 5_000;
const ATTEMPTS = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Signs the payer's report (EIP-712) and sends it to POST /api/v1/outcomes, after the indexer's
 * next tick; a 422 not_paid (not indexed yet) and a 429 (the reports of one address are limited)
 * are tried again for about a minute. Returns the final status.
 */
export async function report(serviceUrl: string, account: PrivateKeyAccount, e: DemoEndpoint, paid: Paid, detail: string): Promise<number> {
  await sleep(FIRST_REPORT_MS);
  for (let attempt = 1; ; attempt++) {
    const fields = { url: e.url, tx: paid.tx, outcome: paid.outcome, detail, issued_at: Math.floor(Date.now() / 1000) };
    const signature = await account.signTypedData({
      domain: OUTCOME_REPORT_DOMAIN,
      types: OUTCOME_REPORT_TYPES,
      primaryType: "OutcomeReport",
      message: outcomeReportMessage(fields),
    });
    const res = await fetch(`${serviceUrl}/api/v1/outcomes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...fields, payer: account.address, signature }),
    });
    const answer = (await res.json().catch(() => ({}))) as { error?: string };
    const again = (res.status === 422 && answer.error === "not_paid") || res.status === 429;
    if (!again || attempt >= ATTEMPTS) return res.status;
    await sleep(res.status === 429 ? Number(res.headers.get("retry-after") ?? 5) * 1000 : RETRY_MS);
  }
}
