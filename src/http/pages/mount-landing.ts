import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { SingleUrlBody } from "@x402-lookout/contracts/preflight/request";
import type { AppContext } from "../../context.js";
import { DomainError } from "../../services/errors.js";
import type { AppEnv } from "../app-env.js";
import { SERVICE_NAME } from "../attribution.js";
import { toApiError, type ApiError } from "../errors.js";
import { cacheHeaders } from "../explorer/cache.js";
import { formatIssues } from "../input.js";
import type { AnyRouteDef } from "../registry.js";
import { checkForm } from "./check-form.js";
import { checkRefused, checkVerdict } from "./check-verdict.js";
import { landing, LANDING_STYLE } from "./landing.js";
import { layout, type Html } from "./layout.js";

interface LandingDeps {
  ctx: AppContext;
  routes: readonly AnyRouteDef[];
}

/**
 * `/` from live figures, and `GET /check?url=`: the check form's answer without JavaScript, made
 * by the free trial's own service call (its quota and its cache: never a way around them).
 */
export function mountLanding(app: Hono<AppEnv>, { ctx, routes }: LandingDeps): void {
  const { services } = ctx;
  app.get("/", async (c) =>
    c.html(layout(SERVICE_NAME, landing(routes, await services.overview.figures(), services.now()), { style: LANDING_STYLE }), 200, cacheHeaders("landing")),
  );

  app.get("/check", async (c) => {
    const asked = c.req.query("url") ?? "";
    const page = (status: 200 | 400 | 429 | 503, answer: Html) =>
      c.html(
        layout("Check a URL", html`<h1>Check a URL</h1>${checkForm(asked, answer)}`, { style: LANDING_STYLE }),
        status,
        cacheHeaders(status === 200 ? "trial" : "error"),
      );
    if (asked === "") return page(200, html``); // the bare form: nothing asked, nothing counted
    const input = SingleUrlBody.safeParse({ url: asked });
    if (!input.success) return page(400, checkRefused(formatIssues(input.error.issues)));
    try {
      return page(200, checkVerdict(input.data.url, await services.trial.preflight(input.data.url, c.get("clientIp"))));
    } catch (err) {
      return refusal(c, err, (status, message) => page(status, checkRefused(message)));
    }
  });
}

/** A domain refusal (the trial's daily limit) said on the page with its status and headers; anything else goes to app.onError. */
function refusal(c: Context<AppEnv>, err: unknown, render: (status: 429 | 503, message: string) => Response | Promise<Response>) {
  if (!(err instanceof DomainError)) throw err;
  const answer: ApiError = toApiError(err);
  if (answer.status !== 429 && answer.status !== 503) throw err;
  for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
  return render(answer.status, answer.message);
}
