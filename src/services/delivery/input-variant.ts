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
 * variant in which each parameter the schema enumerates (or gives examples for) takes another of
 * its declared values, so two checks in a row ask questions the provider itself calls different
 * and an identical answer is canned. A parameter without declared values is not varied: "Paris-2"
 * may well get the same honest answer as "Paris". Nothing declared to vary: the example every time.
 */
export function checkInput(declared: unknown, schema: unknown, n: number): CheckInput {
  const input = obj(declared);
  const query = obj(input?.queryParams) ?? obj(input?.query);
  const body = input?.body;
  if (!input || (!query && body === undefined)) return { kind: "none", query: null, body: null };
  const asDeclared: CheckInput = { kind: "declared", query: declaredQuery(input), body: declaredBody(input) };
  if (n % 2 === 0) return asDeclared;
  const fields = obj(obj(obj(schema)?.properties)?.input)?.properties as Json | undefined;
  const q = query ? vary(query, obj(obj(fields?.queryParams)?.properties)) : null;
  const b = obj(body) ? vary(obj(body)!, obj(obj(fields?.body)?.properties)) : null;
  if (!q?.changed && !b?.changed) return asDeclared;
  const varied: Json = { ...input, ...(q ? { queryParams: q.values } : {}), ...(b ? { body: b.values } : {}) };
  delete varied.query;
  return { kind: "variant", query: declaredQuery(varied), body: declaredBody(varied) };
}

function vary(values: Json, schemas: Json | undefined): { values: Json; changed: boolean } {
  let changed = false;
  const out = Object.fromEntries(
    Object.entries(values).map(([name, v]) => {
      const schema = obj(schemas?.[name]);
      const other = [...arr(schema?.enum), ...arr(schema?.examples)].find((c) => c !== v && typeof c === typeof v);
      if (other === undefined) return [name, v];
      changed = true;
      return [name, other];
    }),
  );
  return { values: out, changed };
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
