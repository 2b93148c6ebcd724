import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Logger } from "../lib/log.js";

/** Per-request values set by the middleware in app.ts. */
export interface AppEnv {
  Variables: {
    requestId: string;
    clientIp: string;
    log: Logger;
    /** Registry id of the matched route, for metrics and logs. */
    routeId: string;
    /** Whether the matched route is paid: errors then state payment_settled=false. */
    paid: boolean;
    /** Set by the gate once it settled, so an error after settlement does not claim otherwise. */
    settled: boolean;
  };
}

/** The app createApp builds. Here, not in app.ts, so modules app.ts mounts can name it without a circle. */
export type App = OpenAPIHono<AppEnv>;
