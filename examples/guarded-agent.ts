// An agent that pays x402 endpoints only when x402 Lookout's preflight lets it. With `npm start` running:
//   PAYER_KEY=<the demo key from the log> node --import tsx examples/guarded-agent.ts <url>...
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { createLookoutClient, guardFetch, PreflightBlockedError } from "@x402-lookout/client";

const wallet = privateKeyToAccount(process.env.PAYER_KEY as `0x${string}`);
const client = x402Client.fromConfig({ schemes: [{ network: "eip155:84532", client: new ExactEvmScheme(wallet) }] });
const lookout = createLookoutClient({ baseUrl: process.env.LOOKOUT_BASE_URL ?? "http://localhost:8402", signer: wallet });
// x402Client: each payment is also checked against the exact requirement about to be signed.
const agentFetch = guardFetch(wrapFetchWithPayment(fetch, client), { lookout, x402Client: client });

for (const url of process.argv.slice(2)) {
  const res = await agentFetch(url).catch((err: unknown) => err);
  if (res instanceof PreflightBlockedError) console.log(`refused ${url}: ${res.message}`);
  else if (res instanceof Response) console.log(`${res.headers.has("payment-response") ? "paid" : "unpaid"} ${url}: HTTP ${res.status} ${await res.text()}`);
  else console.log(`failed ${url}: ${String(res)}`);
}
