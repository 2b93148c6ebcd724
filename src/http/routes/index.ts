import type { AnyRouteDef } from "../registry.js";
import { createCreditRoute } from "./credits/create-credit.js";
import { getCreditRoute } from "./credits/get-credit.js";

/** Every product route of the service, in the order the landing page and spec list them. */
export const productRoutes: readonly AnyRouteDef[] = [createCreditRoute, getCreditRoute];
