/**
 * Calls any route of a running x402 Lookout with a real x402 client, for people trying it out:
 * pays a 402 with the demo key, or a preflight from a credit bundle (--credit, X-Credit-Id).
 *   npm run pay -- /api/v1/credits '{}'      npm run pay -- GET /api/v1/credits/<id>
 *   WATCH_SECRET=<secret> npm run pay -- GET|DELETE /api/v1/watch/<id>
 * LOOKOUT_BASE_URL (default http://localhost:8402), PAYER_KEY (default: anvil demo account 1,
 * funded on the local devnet), MAX_PAYMENT_USDC (default 5: the most expensive route), CREDIT_ID,
 * WATCH_SECRET (or --secret).
 */
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";
import { anvilAccount } from "../chain/devnet-accounts.js";
import { baseUrlOf, PAY_USAGE, parsePayArgs, PayUsageError, type PayArgs } from "./pay/args.js";
import { printAnswer } from "./pay/print.js";
import { unreachableMessage } from "./pay/unreachable.js";

let args: PayArgs;
try {
  args = parsePayArgs(process.argv.slice(2), process.env);
} catch (err) {
  if (!(err instanceof PayUsageError)) throw err;
  console.error(`pay: ${err.message}\n\n${PAY_USAGE}`);
  process.exit(2);
}
const { base, warning } = baseUrlOf(process.env);
if (warning) console.error(warning);
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

const headers: Record<string, string> = {};
if (args.body !== undefined) headers["content-type"] = "application/json";
if (args.creditId) headers["x-credit-id"] = args.creditId;
if (args.watchSecret) headers.authorization = `Bearer ${args.watchSecret}`;
const res = await pay(`${base}${args.path}`, { method: args.method, headers, ...(args.body !== undefined ? { body: args.body } : {}) }).catch((err: Error) => {
  console.error(unreachableMessage(base, err) ?? `request failed: ${err.message}`);
  process.exit(1);
});

console.log(`payer   ${account.address}`);
console.log(`status  ${res.status} ${res.statusText}`);
const receipt = res.headers.get("payment-response");
if (receipt) console.log(`receipt ${JSON.stringify(decodePaymentResponseHeader(receipt), null, 2)}`);
await printAnswer(res, args);
if (res.status === 202 && signature) {
  console.log(`settlement pending: send the same request again with this header to collect the answer:\nPAYMENT-SIGNATURE: ${signature}`);
}
process.exit(res.ok ? 0 : 1);
