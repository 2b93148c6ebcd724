import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fleetAddress } from "./fleet.js";

/**
 * The loopback fleet: one process, one request handler, listening on HOSTS distinct loopback
 * addresses (127.0.1.1, 127.0.1.2, ...) on one port. Linux routes all of 127.0.0.0/8 to lo, so
 * each address is a separate virtual host (URL.host differs) without any network set-up.
 * Answers by path: /e/<n> with n mod 10 -> 0-5 a v2 402 header challenge, 6 a v1 402 body,
 * 7 a 200, 8 a 500, 9 a 404; anything else 404. Prints {"port":..} on stdout when listening.
 */

const HOSTS = Number(process.argv[2] ?? 1000);

const challenge = (amount: string) =>
  Buffer.from(
    JSON.stringify({
      x402Version: 2,
      resource: { url: "http://fleet.test/e", description: "bench", mimeType: "application/json" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount,
          asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          payTo: "0x" + "1".repeat(40),
          maxTimeoutSeconds: 300,
          extra: {},
        },
      ],
    }),
  ).toString("base64");
const V2_HEADER = challenge("10000");
const V1_BODY = JSON.stringify({
  x402Version: 1,
  accepts: [
    {
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: "20000",
      resource: "http://fleet.test/e",
      payTo: "0x" + "1".repeat(40),
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      maxTimeoutSeconds: 60,
    },
  ],
});

function handle(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const m = /^\/e\/(\d+)/.exec(req.url ?? "");
  const kind = m ? Number(m[1]) % 10 : 9;
  if (kind <= 5) res.writeHead(402, { "content-type": "application/json", "payment-required": V2_HEADER }).end("{}");
  else if (kind === 6) res.writeHead(402, { "content-type": "application/json" }).end(V1_BODY);
  else if (kind === 7) res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  else if (kind === 8) res.writeHead(500).end("boom");
  else res.writeHead(404).end("not found");
}

async function listen(address: string, port: number): Promise<number> {
  const server = createServer({ keepAliveTimeout: 10_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, address, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

const port = await listen(fleetAddress(0), 0);
for (let i = 1; i < HOSTS; i++) await listen(fleetAddress(i), port);
process.stdout.write(JSON.stringify({ port, hosts: HOSTS }) + "\n");
