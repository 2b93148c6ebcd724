import { z } from "@hono/zod-openapi";
import { html } from "hono/html";
import type { Html } from "./layout.js";

interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

interface Row {
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

const MAX_DEPTH = 3;

/** A field table generated from the route's zod schema, so the page never drifts from validation. */
export function schemaTable(schema: z.ZodType, io: "input" | "output"): Html {
  const rows = flatten(z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema, "", true, 0);
  if (rows.length === 0) return html`<p class="muted">No fields.</p>`;
  return html`<div class="scroll" tabindex="0"><table class="fields"><thead><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr></thead><tbody>
${rows.map((r) => html`<tr><td><code>${breakable(r.name)}</code></td><td>${r.type}</td><td>${r.required ? "yes" : "no"}</td><td>${r.notes}</td></tr>`)}
</tbody></table></div>`;
}

/** A field path breaks after its dots only, never inside a name (a narrow screen scrolls the table instead). */
const breakable = (name: string) => name.split(".").map((part, i) => (i ? html`.<wbr>${part}` : part));

function flatten(s: JsonSchema, prefix: string, required: boolean, depth: number): Row[] {
  const rows: Row[] = [];
  if (!s.properties) return rows;
  for (const [key, child] of Object.entries(s.properties)) {
    const name = prefix ? `${prefix}.${key}` : key;
    const req = (s.required ?? []).includes(key);
    rows.push({ name, type: typeOf(child), required: req && required, notes: notesOf(child) });
    if (depth + 1 >= MAX_DEPTH) continue;
    const inner = unwrap(child);
    if (inner.properties) rows.push(...flatten(inner, name, true, depth + 1));
    else if (inner.items && unwrap(inner.items).properties) rows.push(...flatten(unwrap(inner.items), `${name}[]`, true, depth + 1));
  }
  return rows;
}

const unwrap = (s: JsonSchema): JsonSchema => s.anyOf?.find((x) => x.type !== "null") ?? s;

function typeOf(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(" or ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return `enum ${s.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const t = Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "any");
  if (t === "array" && s.items) return `array of ${typeOf(s.items)}`;
  return s.format ? `${t} (${s.format})` : t;
}

function notesOf(s: JsonSchema): string {
  const parts = [s.description];
  const u = unwrap(s);
  parts.push(boundsOf(u));
  if (u.maxLength !== undefined) parts.push(`at most ${u.maxLength} characters`);
  if (u.minItems !== undefined || u.maxItems !== undefined) parts.push(`${u.minItems ?? 0} to ${u.maxItems ?? "…"} items`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.filter(Boolean).join("; ");
}

/** zod's int() says "a safe integer": a bound at that limit is no real bound, so it is left out. */
const real = (n: number | undefined) => (n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);

function boundsOf(u: JsonSchema): string | undefined {
  const [min, max, xmin, xmax] = [real(u.minimum), real(u.maximum), real(u.exclusiveMinimum), real(u.exclusiveMaximum)];
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  const low = min !== undefined ? `at least ${min}` : xmin !== undefined ? `greater than ${xmin}` : undefined;
  const high = max !== undefined ? `at most ${max}` : xmax !== undefined ? `less than ${xmax}` : undefined;
  return [low, high].filter(Boolean).join(" and ") || undefined;
}
