// Run by test/packages/install.test.ts with plain node inside a project that installed the packed
// tarballs: the typed client from its dist, paying with a viem account as its signer.
import { createLookoutClient } from "@x402-lookout/client";
import { privateKeyToAccount } from "viem/accounts";

const calls = [];
const lookout = createLookoutClient({
  baseUrl: process.env.LOOKOUT_BASE_URL,
  signer: privateKeyToAccount(process.env.PAYER_KEY),
  onCall: (c) => calls.push({ routeId: c.routeId, paymentSent: c.paymentSent, transaction: c.transaction }),
});
const url = process.argv[2];
const trial = await lookout.preflightTrial({ url });
const paid = await lookout.preflight({ url });
// `verified` (not enumerable) holds the claims the client checked the signature against.
const verified = { trial: trial.verified ?? null, paid: paid.verified ?? null };
process.stdout.write(`${JSON.stringify({ resolved: import.meta.resolve("@x402-lookout/client"), trial, paid, verified, calls })}\n`);
