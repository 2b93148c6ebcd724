// Run by test/packages/install.test.ts with plain node inside a project that installed the packed
// tarballs: an agent paying through the x402 SDK, its x402Client checked by lookoutPolicy.
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { createLookoutClient, lookoutPolicy } from "@x402-lookout/client";

const wallet = privateKeyToAccount(process.env.PAYER_KEY);
const client = x402Client.fromConfig({ schemes: [{ network: process.env.NETWORK, client: new ExactEvmScheme(wallet) }] });
const lookout = createLookoutClient({ baseUrl: process.env.LOOKOUT_BASE_URL, signer: wallet });
const policy = lookoutPolicy({ lookout });
client.onBeforePaymentCreation(policy);
const pay = wrapFetchWithPayment(policy.fetch(globalThis.fetch), client);

const results = [];
for (const url of process.argv.slice(2)) {
  try {
    const res = await pay(url);
    results.push({ url, status: res.status, paid: res.headers.has("payment-response") });
  } catch (err) {
    results.push({ url, refused: err instanceof Error ? err.message : String(err) });
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`);
