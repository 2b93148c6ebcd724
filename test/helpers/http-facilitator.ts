import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { FacilitatorClient } from "../../src/chain/facilitator.js";

/**
 * ok; hang or error on every call; or verify normally and then, at settlement, fail with HTTP 500
 * (settle-error), never answer (settle-hang) or refuse the settlement (settle-refuse); in those
 * the transfer is never broadcast. settle-late settles on chain, then answers only after
 * `lateMs` (a facilitator slower than the gate's time-out, as Base confirmations can be).
 */
export type FacilitatorMode = "ok" | "hang" | "error" | "settle-error" | "settle-hang" | "settle-refuse" | "settle-late";

/**
 * A real facilitator over HTTP (x402 /supported, /verify, /settle) in front of the devnet's
 * local facilitator, whose behaviour a test can switch to hanging or failing mid-run.
 */
export async function startHttpFacilitator(local: FacilitatorClient, { lateMs = 5_000 } = {}) {
  let mode: FacilitatorMode = "ok";
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.url === "/supported") return void local.getSupported().then((s) => reply(200, s));
      if (mode === "hang" || (mode === "settle-hang" && req.url === "/settle")) return; // never answers
      if (mode === "error" || (mode === "settle-error" && req.url === "/settle")) return reply(500, { error: "facilitator exploded" });
      if (mode === "settle-refuse" && req.url === "/settle")
        return reply(200, { success: false, errorReason: "invalid_transaction_state", transaction: "", network: "eip155:84532" });
      const { paymentPayload, paymentRequirements } = JSON.parse(body) as { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
      const work = req.url === "/verify" ? local.verify(paymentPayload, paymentRequirements) : local.settle(paymentPayload, paymentRequirements);
      const delay = mode === "settle-late" && req.url === "/settle" ? lateMs : 0;
      work.then(
        (r) => setTimeout(() => reply(200, r), delay),
        (err: unknown) => reply(500, { error: String(err) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setMode: (m: FacilitatorMode) => void (mode = m),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
