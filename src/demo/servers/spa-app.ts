import { Hono } from "hono";
import { SPA_MANIFEST_PATHS } from "../plan/other-hosts.js";

const APP_SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Canvas Studio: on-brand images in seconds</title>
<link rel="stylesheet" href="/assets/index-4f9c2a.css">
<script type="module" crossorigin src="/assets/index-8b1d7e.js"></script>
</head>
<body>
<div id="root"></div>
<noscript>Canvas Studio needs JavaScript.</noscript>
</body>
</html>
`;

/**
 * The SPA-fallback host: a single-page app whose server answers every unknown path with its
 * HTML shell and status 200, listed paid API routes included. A naked probe of a listed route
 * therefore looks healthy (2xx); only the host check reveals it. Its /.well-known/x402 manifest
 * names the resources it really sells, which is what the service should count.
 */
export function spaApp(opts: { origin: string }): Hono {
  const app = new Hono();
  app.get("/.well-known/x402", (c) => c.json({ version: 1, resources: SPA_MANIFEST_PATHS.map((p) => `${opts.origin}${p}`) }));
  app.all("*", (c) => c.html(APP_SHELL, 200));
  return app;
}
