import { declaredBody } from "../probes/probe-body.js";
import { declaredQuery } from "../probes/probe-query.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);

/** What a check sends: the declared example, or the variant of it that tells a canned answer (decision 0051). */
export interface CheckInput {
  kind: "declared" | "variant" | "none";
  query: string | null;
  body: string | null;
}

/**
 * The input of a listing's check number `n`: even checks send the declared example, odd ones a
 * variant in which every scalar differs (another value the schema enumerates or gives as an
 * example, else a number plus one, a boolean negated, a string with "-2"), so two checks in a row
 * ask different questions and an identical answer is canned. No declared input: nothing to vary.
 */
export function checkInput(declared: unknown, schema: unknown, n: number): CheckInput {
  const input = obj(declared);
  const query = obj(input?.queryParams) ?? obj(input?.query);
  const body = input?.body;
  if (!input || (!query && body === undefined)) return { kind: "none", query: null, body: null };
  if (n % 2 === 0) return { kind: "declared", query: declaredQuery(input), body: declaredBody(input) };
  const fields = obj(obj(obj(schema)?.properties)?.input)?.properties as Json | undefined;
  const varied: Json = {
    ...input,
    ...(query ? { queryParams: vary(query, obj(obj(fields?.queryParams)?.properties)) } : {}),
    ...(obj(body) ? { body: vary(obj(body)!, obj(obj(fields?.body)?.properties)) } : {}),
  };
  delete varied.query;
  return { kind: "variant", query: declaredQuery(varied), body: declaredBody(varied) };
}

function vary(values: Json, schemas: Json | undefined): Json {
  return Object.fromEntries(Object.entries(values).map(([name, v]) => [name, other(v, obj(schemas?.[name]))]));
}

function other(value: unknown, schema: Json | undefined): unknown {
  const listed = [...arr(schema?.enum), ...arr(schema?.examples)].find((c) => c !== value && typeof c === typeof value);
  if (listed !== undefined) return listed;
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  if (typeof value === "string") return `${value}-2`;
  return value;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
