import { createHash } from "node:crypto";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);

/**
 * The schema a listing declares for the body it delivers: the Bazaar extension's
 * (`schema.properties.output.properties.example`, as declareDiscoveryExtension writes
 * `output.schema`), else a v1 item's `outputSchema.output` when it is a schema (has a type or properties).
 */
export function declaredOutputSchema(raw: unknown): Json | null {
  const bazaar = obj(obj(raw)?.extensions)?.bazaar;
  const fromBazaar = obj(obj(obj(obj(obj(bazaar)?.schema)?.properties)?.output)?.properties)?.example;
  const v1 = obj(obj(obj(obj(raw)?.accepts as unknown[] | undefined)?.[0] as unknown)?.outputSchema)?.output;
  const found = obj(fromBazaar) ?? obj(v1);
  return found && (found.type !== undefined || found.properties !== undefined) ? found : null;
}

// One compiled validator per distinct schema; a listing's schema is a catalog's text, so the cache is bounded.
const compiled = new Map<string, ValidateFunction | null>();
const MAX_COMPILED = 500;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });

/** Whether `body` (JSON text) matches the declared schema: errors, [] when it does, null when the schema cannot be compiled. */
export function outputErrors(schema: Json, body: string): string[] | null {
  const key = createHash("sha256").update(JSON.stringify(schema)).digest("hex");
  if (!compiled.has(key)) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    try {
      compiled.set(key, ajv.compile(schema));
    } catch {
      compiled.set(key, null);
    }
  }
  const validate = compiled.get(key);
  if (!validate) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return ["the body is not JSON"];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
}
