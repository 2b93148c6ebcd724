import type { AnyRouteDef } from "../../src/http/registry.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { startPaidService, type PaidService } from "../helpers/paid-service.js";

/** Every route of the service as the composition root wires it. */
export const allRoutes: readonly AnyRouteDef[] = productRoutes;

export type LookoutService = PaidService;

/** The real service on a real loopback port, paid on the real devnet, discovery surfaces included. */
export const startLookout = (opts: { env?: Record<string, string>; routes?: readonly AnyRouteDef[] } = {}): Promise<LookoutService> =>
  startPaidService({ routes: opts.routes ?? allRoutes, env: opts.env });

export const postJson = (payload: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
