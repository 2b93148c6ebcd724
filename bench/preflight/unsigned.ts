import type { AppContext } from "../../src/context.js";
import type { AnyRouteDef } from "../../src/http/registry.js";
import { reportTarget } from "../../src/http/routes/preflight/report-target.js";
import { preflightRoute } from "../../src/http/routes/preflight/preflight.js";
import { createLiveProber, createReportsService, type ReportsService } from "../../src/services/reports/index.js";
import { createVerdictSigner } from "../../src/services/verdict-signing/index.js";

export const UNSIGNED_PATH = "/bench/preflight-unsigned";

/**
 * Bench only: credit-paid preflight exactly as served (same gate, same credit spend, a reports
 * service of its own over the same database) except that its signer returns a constant instead
 * of signing, so the two side by side show what the verdict signature costs. The claims object
 * is still built: what is left out is the key, the JSON and base64 of the JWS and the Ed25519 signature.
 */
export function unsignedPreflight(): { route: AnyRouteDef; attach(ctx: AppContext): Promise<void> } {
  let reports: ReportsService | undefined;
  const route: AnyRouteDef = {
    ...preflightRoute,
    id: "preflight-unsigned-bench",
    path: UNSIGNED_PATH,
    prepare: ({ body }) => reports!.find([body.url]),
    handler: ({ body }, _ctx, rows) => reports!.preflight(reportTarget(body), rows),
  };
  return {
    route,
    async attach(ctx) {
      const live = createLiveProber(ctx.db.db, { allowPrivate: false, publicBaseUrl: ctx.config.publicBaseUrl });
      // BENCH_CONTROL=1: this copy signs too, so the two routes differ only in their reports instance (a control run).
      const sign =
        process.env.BENCH_CONTROL === "1" ? createVerdictSigner(ctx.db.db, ctx.clock, ctx.config.publicBaseUrl) : async () => "bench.unsigned.verdict";
      reports = createReportsService({
        db: ctx.db,
        clock: ctx.clock,
        live,
        sign,
        cacheRows: ctx.config.reportCacheRows,
        publicBaseUrl: ctx.config.publicBaseUrl,
      });
      await reports.find.cache.warm().catch(() => undefined);
    },
  };
}
