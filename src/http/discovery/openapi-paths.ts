import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.js";
import { ErrorBodySchema } from "@x402-lookout/contracts/common";
import { DISCOVERY_PATHS } from "./paths.js";

const json = (description: string, schema: z.ZodType = z.object({}).passthrough()) => ({ description, content: { "application/json": { schema } } });
const text = (type: string, description: string) => ({ description, content: { [type]: { schema: z.string() } } });
const notFound = { description: "unknown id", content: { "application/json": { schema: ErrorBodySchema } } };

const Jwks = z
  .object({ keys: z.array(z.object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string(), alg: z.string(), use: z.string() })) })
  .openapi("Jwks");

const certParams = z.object({ certId: z.string().describe("the certId returned by POST /api/v1/verified") });

/** The free public surfaces in the OpenAPI document, next to the registry's API routes. */
export function registerDiscoveryPaths(app: OpenAPIHono<AppEnv>): void {
  const get = (path: string, operationId: string, summary: string, responses: Record<number, object>, params?: z.ZodObject) =>
    app.openAPIRegistry.registerPath(
      createRoute({ method: "get", path, operationId, summary, request: params ? { params } : {}, responses: responses as never }),
    );

  get(DISCOVERY_PATHS.x402, "x402-manifest", "Every paid route with method, price, network, asset, payTo and JSON schemas of input and output", {
    200: json("x402 manifest"),
  });
  get(DISCOVERY_PATHS.llms, "llms-txt", "A plain-text summary of the service and every route with its price, for language models", {
    200: text("text/plain", "llms.txt"),
  });
  get(DISCOVERY_PATHS.agentCard, "agent-card", "A2A-style agent card: one skill per route", { 200: json("agent card") });
  get(DISCOVERY_PATHS.jwks, "jwks", "Ed25519 public keys that verify certificate JWS", { 200: json("JSON Web Key Set", Jwks) });
  get(
    "/verified/{certId}",
    "verified-page",
    "Public page of a certificate: live state and evidence per criterion",
    { 200: text("text/html", "HTML page"), 404: text("text/html", "unknown certificate") },
    certParams,
  );
  get(
    "/verified/{certId}/badge.svg",
    "verified-badge",
    "SVG badge of a certificate's live state (verified or lapsed)",
    { 200: text("image/svg+xml", "badge"), 404: text("image/svg+xml", "unknown certificate") },
    certParams,
  );
  get(DISCOVERY_PATHS.dataset, "dataset-page", "The public dataset: builds with download links, sizes and dates (CC-BY-4.0)", {
    200: text("text/html", "HTML page"),
  });
  get(DISCOVERY_PATHS.datasetIndex, "dataset-index", "The public dataset builds as JSON", { 200: json("dataset builds") });
  get(DISCOVERY_PATHS.prober, "prober-page", "Who probes listed endpoints, how, and how to reach the operator", { 200: text("text/html", "HTML page") });
  get(
    "/dataset/{id}/{file}",
    "dataset-file",
    "One file of a dataset build: endpoints.csv, endpoints.jsonl, README.md or LICENSE",
    { 200: text("application/octet-stream", "the file"), 404: notFound },
    z.object({ id: z.string().describe("build id"), file: z.enum(["endpoints.csv", "endpoints.jsonl", "README.md", "LICENSE"]) }),
  );
}
