/**
 * Pays any route of a running x402 Lookout with a real x402 client, for people trying it out.
 *   npm run pay -- /api/v1/credits '{}'
 * LOOKOUT_URL (default http://localhost:8402), PAYER_KEY (default: anvil demo account 1, funded
 * on the local devnet), MAX_PAYMENT_USDC (default 5: the most expensive route).
 */
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";
import { anvilAccount } from "../chain/devnet-accounts.js";

const [path, rawBody, ...rest] = process.argv.slice(2);
if (!path || rest.length > 0 || !path.startsWith("/")) {
  console.error("usage: npm run pay -- <path> ['<json body>']   e.g. npm run pay -- /api/v1/credits '{}'");
  process.exit(2);
}
let body: string | undefined;
if (rawBody !== undefined) {
  try {
    body = JSON.stringify(JSON.parse(rawBody));
  } catch (err) {
    console.error(`the body is not valid JSON: ${(err as Error).message}`);
    process.exit(2);
  }
}

const base = (process.env.LOOKOUT_URL ?? "http://localhost:8402").replace(/\/+$/, "");
const key = (process.env.PAYER_KEY ?? anvilAccount(1).privateKey) as `0x${string}`;
if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
  console.error("PAYER_KEY must be a 0x-prefixed 32-byte hex private key");
  process.exit(2);
}
const account = privateKeyToAccount(key);
const client = x402Client.fromConfig({
  schemes: (["eip155:8453", "eip155:84532"] as const).map((network) => ({ network, client: new ExactEvmScheme(account) })),
  spendControls: { maxAmountPerPayment: `$${process.env.MAX_PAYMENT_USDC ?? "5"}` },
});
// A payment-identifier makes a retry of the same signed payment collect its answer (docs/payments.md).
client.onBeforePaymentCreation(async ({ paymentRequired }) => {
  paymentRequired.extensions = appendPaymentIdentifierToExtensions({ ...paymentRequired.extensions }, generatePaymentId());
});
let signature: string | null = null;
const pay = wrapFetchWithPayment(async (input, init) => {
  const req = new Request(input, init);
  signature = req.headers.get("payment-signature") ?? signature;
  return fetch(req);
}, client);

const res = await pay(`${base}${path}`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  ...(body !== undefined ? { body } : {}),
}).catch((err: Error) => {
  console.error(`request failed: ${err.message}`);
  process.exit(1);
});

console.log(`payer   ${account.address}`);
console.log(`status  ${res.status} ${res.statusText}`);
const receipt = res.headers.get("payment-response");
if (receipt) console.log(`receipt ${JSON.stringify(decodePaymentResponseHeader(receipt), null, 2)}`);
const text = await res.text();
try {
  console.log(JSON.stringify(JSON.parse(text), null, 2));
} catch {
  console.log(text);
}
if (res.status === 202 && signature) {
  console.log(`settlement pending: send the same request again with this header to collect the answer:\nPAYMENT-SIGNATURE: ${signature}`);
}
process.exit(res.ok ? 0 : 1);
