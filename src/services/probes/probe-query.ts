/** A declared query longer than this (encoded) is not sent: a probe is a knock, not a workload. */
export const MAX_EXAMPLE_QUERY_BYTES = 2 * 1024;

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean";

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * The query example a catalog item declares for its input (Bazaar `info.input.queryParams`, or
 * `query`), encoded as a client encodes a parameter object (URLSearchParams): a scalar is one
 * parameter, an array of scalars repeats it. A value that is an object is a field description
 * (v1 listings write `{type, description, required}` there), not an example: left out. Null
 * when nothing is declared, or the encoded query is over the cap.
 */
export function declaredQuery(input: unknown): string | null {
  const declared = obj(input);
  const params = obj(declared?.queryParams) ?? obj(declared?.query);
  if (!params) return null;
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (isScalar(value)) out.append(name, String(value));
    else if (Array.isArray(value) && value.every(isScalar)) for (const v of value) out.append(name, String(v));
  }
  const text = out.toString();
  return text === "" || Buffer.byteLength(text) > MAX_EXAMPLE_QUERY_BYTES ? null : text;
}

/**
 * The listed URL with the declared query appended, as a client building the request would. A
 * parameter the listed address already names keeps the listing's value: the catalog's own
 * address is what it lists (and what the URL matcher keys on), the example only fills the gaps.
 */
export function withQuery(url: string, query: string | null): string {
  if (!query) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const added = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(query)) if (!parsed.searchParams.has(name)) added.append(name, value);
  const extra = added.toString();
  if (extra === "") return url;
  parsed.search = parsed.search.length > 1 ? `${parsed.search.slice(1)}&${extra}` : extra;
  return parsed.toString();
}
