import type { AnyRouteDef } from "../../registry.js";
import { createCertificateRoute } from "./create-certificate.js";
import { getCertificateRoute } from "./get-certificate.js";

/** The provider certification product: the paid certificate and its free live status. */
export const verifiedRoutes: readonly AnyRouteDef[] = [createCertificateRoute, getCertificateRoute];
