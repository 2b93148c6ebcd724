import { DEFAULT_PROFILE, type ProbeProfile } from "./profiles.js";

/** A declared input example larger than this is not sent: a probe is a knock, not a workload. */
export const MAX_EXAMPLE_BODY_BYTES = 8 * 1024;

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * The JSON body example a catalog item declares for its input (Bazaar
 * `extensions.bazaar.info.input`: `bodyType: "json"` and `body`), as the text a client sends
 * (keys in jsonb's stored order); null when it declares none, another body type, or one over the cap.
 */
export function declaredBody(input: unknown): string | null {
  const declared = obj(input);
  if (!declared || declared.body === undefined || declared.body === null) return null;
  if (declared.bodyType !== undefined && declared.bodyType !== "json") return null;
  const text = JSON.stringify(declared.body);
  return Buffer.byteLength(text) <= MAX_EXAMPLE_BODY_BYTES ? text : null;
}

type Body = { text: string; contentType: string } | { text: null; contentType: string | null };

const JSON_TYPE = "application/json";
/** A POST with no input: axios labels it a form (measured), fetch, httpx and Chrome send no type. */
const EMPTY_TYPE: Partial<Record<ProbeProfile, string>> = { axios: "application/x-www-form-urlencoded" };

/**
 * The body of a probe that carries one (decision 0020): the default profile sends what an agent
 * would, the listing's declared example, else `{}`; httpx sends `{}` (`json={}`); axios and the
 * browser send none. The bodies differ between the default and at least two others, and
 * the header order between every two, so a quote that depends on either differs between two
 * profiles whose spans overlap: cloaking. Only a third of probes go body-less, as some
 * frameworks refuse a POST without one before the payment middleware runs.
 */
export function probeBody(profile: ProbeProfile, example: string | null): Body {
  const chosen = profile === DEFAULT_PROFILE ? (example ?? "{}") : profile === "httpx" ? "{}" : null;
  return chosen === null ? { text: null, contentType: EMPTY_TYPE[profile] ?? null } : { text: chosen, contentType: JSON_TYPE };
}
