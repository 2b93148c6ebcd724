import { z } from "zod";

/** A tool's input or output schema as MCP clients receive it: plain, inline JSON Schema (draft-07). */
export type ToolJsonSchema = { type: "object"; properties?: Record<string, object>; required?: string[] } & Record<string, unknown>;

/**
 * The formats JSON Schema itself defines (draft-07, plus uuid and duration from 2019-09), which
 * every validator knows. zod writes others (starts_with, ends_with, includes, cuid, ulid, jwt,
 * base64, e164, ...) that validators such as the MCP SDK client's ajv warn about and ignore.
 */
export const STANDARD_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uri-template",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/**
 * The JSON Schema of a contract's zod object, with every schema inlined (no $ref or $defs) and
 * each non-standard `format` dropped: the `pattern` zod writes beside it keeps the constraint,
 * and the MCP server still validates every call against the zod schema itself.
 */
export function toolJsonSchema(schema: z.ZodObject, io: "input" | "output"): ToolJsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-7", io, cycles: "throw", reused: "inline" }) as Record<string, unknown>;
  if ("$defs" in json || "definitions" in json) throw new Error("tool schemas must be inline: a contract schema carries a registry id");
  return clean(json) as ToolJsonSchema;
}

function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "format" && typeof value === "string" && !STANDARD_FORMATS.has(value)) continue;
    // Property names and enum values are data, not keywords: only schemas below them are cleaned.
    out[key] = key === "enum" || key === "const" || key === "default" || key === "examples" ? value : clean(value);
  }
  return out;
}
