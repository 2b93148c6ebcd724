/**
 * A webhook receiver for trying watches in the demo:  npm run webhooks [-- <port>]
 * Listens on 127.0.0.1 (default port 8403) and prints every alert it gets; answers 204. The demo
 * allows loopback webhooks (ALLOW_PRIVATE_WEBHOOKS defaults to true in demo mode), so a watch
 * with webhookUrl http://127.0.0.1:8403/ delivers here. It verifies nothing: docs/webhooks.md
 * shows how a real receiver checks the signature.
 */
import { createServer } from "node:http";

const port = Number(process.argv[2] ?? process.env.WEBHOOKS_PORT ?? 8403);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error("usage: npm run webhooks [-- <port>]   (default 8403)");
  process.exit(2);
}

const MAX_BODY = 64 * 1024;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size <= MAX_BODY) chunks.push(c);
  });
  req.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    let alert: { signal?: unknown; state?: unknown; url?: unknown } = {};
    try {
      alert = JSON.parse(text);
    } catch {
      // Not JSON: printed as received below.
    }
    console.log(`${new Date().toISOString()}  ${req.method} ${req.url}  webhook-id ${req.headers["webhook-id"] ?? "-"}`);
    if (alert.signal !== undefined) console.log(`  ${String(alert.signal)} ${String(alert.state)} for ${String(alert.url)}`);
    console.log(`  ${text.length > 2000 ? `${text.slice(0, 2000)}...` : text}`);
    res.writeHead(204).end();
  });
});
server.on("error", (err: NodeJS.ErrnoException) => {
  console.error(err.code === "EADDRINUSE" ? `port ${port} is in use: npm run webhooks -- <another port>` : `webhooks: ${err.message}`);
  process.exit(1);
});
server.listen(port, "127.0.0.1", () => {
  const { port: bound } = server.address() as { port: number };
  console.log(`receiving webhooks on http://127.0.0.1:${bound}/  (Ctrl-C to stop)`);
});
