import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { App } from "../app-env.js";
import type { AppContext } from "../../context.js";
import type { PaymentGate } from "../payment/types.js";
import type { AnyRouteDef } from "../registry.js";
import { layout } from "../pages/layout.js";
import { html } from "hono/html";
import { agentCard } from "./agent-card.js";
import { badgeSvg, SVG_SECURITY_HEADERS } from "./badge-svg.js";
import { datasetIndex, datasetPage } from "./dataset-page.js";
import { llmsTxt } from "./llms-txt.js";
import { registerDiscoveryPaths } from "./openapi-paths.js";
import { DISCOVERY_PATHS } from "./paths.js";
import { verifiedPage } from "./verified-page.js";
import { proberPage } from "./prober-page.js";
import { privateKeyToAccount } from "viem/accounts";
import { x402Manifest } from "./x402-manifest.js";

export interface DiscoveryDeps {
  ctx: AppContext;
  /** Every route the app serves: the manifests list exactly these. */
  routes: readonly AnyRouteDef[];
  /** Gives the manifest the network, asset and payTo of each paid route. */
  gate?: PaymentGate;
}

const PUBLIC_CACHE = "public, max-age=300";
// The badge and page show a live state recomputed per view; caches may keep it a few minutes.
const SVG_HEADERS = { ...SVG_SECURITY_HEADERS, "cache-control": PUBLIC_CACHE };

/**
 * The public surfaces: /.well-known/x402, /llms.txt, /.well-known/agent-card.json,
 * /.well-known/jwks.json, certificate pages and badges, and the dataset page and downloads.
 * Call it on the app createApp returned, before the server takes requests.
 */
export function mountDiscovery(app: App, { ctx, routes, gate }: DiscoveryDeps): void {
  const base = ctx.config.publicBaseUrl;
  const { certificates, dataset } = ctx.services;
  let manifest: object | undefined;
  let card: object | undefined;
  let llms: string | undefined;

  app.get(DISCOVERY_PATHS.x402, (c) =>
    c.json((manifest ??= x402Manifest({ base, routes, gate, network: ctx.config.network })), 200, { "cache-control": PUBLIC_CACHE }),
  );
  app.get(DISCOVERY_PATHS.agentCard, (c) => c.json((card ??= agentCard(base, routes)), 200, { "cache-control": PUBLIC_CACHE }));
  app.get(DISCOVERY_PATHS.llms, (c) =>
    c.text((llms ??= llmsTxt(base, routes)), 200, { "content-type": "text/plain; charset=utf-8", "cache-control": PUBLIC_CACHE }),
  );
  app.get(DISCOVERY_PATHS.jwks, async (c) => c.json(await certificates.jwks(), 200, { "cache-control": PUBLIC_CACHE, "access-control-allow-origin": "*" }));

  const { privateKey, ...limits } = ctx.config.canary;
  const canary = { ...limits, address: privateKey ? privateKeyToAccount(privateKey).address : null };
  app.get(DISCOVERY_PATHS.prober, (c) => c.html(proberPage(base, ctx.config.operatorContact, canary), 200, { "cache-control": PUBLIC_CACHE }));

  app.get("/verified/:certId", async (c) => {
    const v = await certificates.view(c.req.param("certId"));
    if (!v) return c.html(layout("Unknown certificate", html`<h1>Unknown certificate</h1><p>No certificate has this id.</p>`), 404);
    return c.html(verifiedPage(v), 200, { "cache-control": "no-cache" });
  });
  app.get("/verified/:certId/badge.svg", async (c) => {
    const v = await certificates.view(c.req.param("certId"));
    if (!v) return c.body(badgeSvg({ name: "unknown certificate", state: "lapsed", title: "No x402 Lookout certificate has this id" }), 404, SVG_HEADERS);
    const whose = `${v.name} (${v.host}, payTo ${v.payTo ?? "never proven"})`;
    const title =
      v.state === "verified"
        ? `${whose}: verified by x402 Lookout until ${v.validUntil.toISOString().slice(0, 10)}`
        : `${whose}: x402 Lookout certificate lapsed (${v.lapsedBecause[0] ?? "criteria not met"})`;
    return c.body(badgeSvg({ name: v.name, holder: { host: v.host, payTo: v.payTo }, state: v.state, title }), 200, SVG_HEADERS);
  });

  app.get(DISCOVERY_PATHS.dataset, async (c) => c.html(datasetPage(base, await dataset.list(), await dataset.evidence(), ctx.clock.now())));
  app.get(DISCOVERY_PATHS.datasetIndex, async (c) =>
    c.json(datasetIndex(base, await dataset.list(), await dataset.evidence()), 200, { "cache-control": PUBLIC_CACHE }),
  );
  app.get("/dataset/:id/:file", async (c) => {
    const file = await dataset.findFile(c.req.param("id"), c.req.param("file"));
    const size = file
      ? await stat(file.path).then(
          (s) => s.size,
          () => undefined,
        )
      : undefined;
    if (!file || size === undefined) return c.json({ error: "not_found", message: "no such dataset file", request_id: c.get("requestId") }, 404);
    const download = file.name.startsWith("endpoints.") ? `attachment; filename="x402-lookout-${file.period}-${file.name}"` : "inline";
    return c.body(Readable.toWeb(createReadStream(file.path)) as ReadableStream, 200, {
      "content-type": file.contentType,
      "content-length": String(size),
      "content-disposition": download,
      // A rebuild on the same day replaces the files of that build id, so they are not immutable.
      "cache-control": PUBLIC_CACHE,
      etag: `"${file.sha256}"`,
      "x-content-type-options": "nosniff",
    });
  });

  registerDiscoveryPaths(app);
}
