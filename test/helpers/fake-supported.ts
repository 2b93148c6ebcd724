import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { SupportedKind } from "@x402/core/types";

/**
 * A facilitator that only answers GET /supported with `kinds` (or, with `hang`, never answers),
 * and keeps every request's headers. Other paths answer 404.
 */
export async function startFakeSupported(kinds: SupportedKind[], opts: { hang?: boolean } = {}) {
  const requests: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    if (opts.hang) return;
    const found = req.method === "GET" && req.url === "/supported";
    res.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(found ? { kinds, extensions: [], signers: {} } : { error: "not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
