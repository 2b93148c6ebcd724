import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { ApiError, badRequest } from "./errors.js";
import type { AnyRouteDef } from "./registry.js";

// Fits the largest valid body: a batch of 50 URLs of 2,048 characters (/spec#preflight-batch keeps 413 for more than 50).
export const MAX_BODY_BYTES = 128 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Reads, parses and validates a route's JSON body and path params into typed input. */
export async function readInput(c: Context, def: AnyRouteDef): Promise<{ body: unknown; params: unknown }> {
  const body = def.body ? parse(def.body, await readJson(c, def.bodyOptional ?? false)) : undefined;
  const params = def.params ? parse(def.params, c.req.param()) : undefined;
  return { body, params };
}

async function readJson(c: Context, optional: boolean): Promise<unknown> {
  const raw = await c.req.text();
  if (raw.trim() === "") {
    if (optional) return {};
    throw badRequest("request body is required: a JSON object with Content-Type: application/json");
  }
  const type = c.req.header("content-type");
  if (!type || !JSON_TYPE.test(type)) {
    throw new ApiError(415, "unsupported_media_type", `Content-Type must be application/json, got ${type ? JSON.stringify(type.slice(0, 100)) : "none"}`);
  }
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new ApiError(400, "malformed_json", `request body is not valid JSON: ${(err as Error).message}`);
  }
}

function parse(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // A schema may name a status other than 400 for an issue (a batch above its size cap is 413).
  const special = result.error.issues.find((i): i is z.core.$ZodIssueCustom => i.code === "custom" && i.params?.status === 413);
  if (special) throw new ApiError(413, "payload_too_large", special.message);
  throw badRequest(formatIssues(result.error.issues));
}

/** "urls[3]: must be an http(s) URL; limit: must be at most 10" */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 10)
    .map((i) => {
      const path = i.path.map((seg, n) => (typeof seg === "number" ? `[${seg}]` : n === 0 ? String(seg) : `.${String(seg)}`)).join("");
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join("; ");
}
