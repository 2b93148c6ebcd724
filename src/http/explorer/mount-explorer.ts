import type { App } from "../app-env.js";
import type { AppContext } from "../../context.js";
import { mountEndpointPages } from "./mount-endpoint.js";
import { mountExplorerList } from "./mount-list.js";

export interface ExplorerDeps {
  ctx: AppContext;
}

/**
 * The public explorer (issue 26, decision 0024): the endpoint list and search, provider and
 * service pages, each endpoint's page with its charts, and free badges. Aggregates only: the
 * raw probe series and the paid products' answers stay paid.
 */
export function mountExplorer(app: App, deps: ExplorerDeps): void {
  void app;
  void deps;
  mountExplorerList(app, deps);
  mountEndpointPages(app, deps);
}
