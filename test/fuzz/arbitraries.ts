import fc from "fast-check";
import type { z } from "@hono/zod-openapi";
import type { AnyRouteDef } from "../../src/http/registry.js";

/**
 * Generators of malformed requests for the fuzz suite. Every request is built from a route of
 * the registry, so a new route or field is fuzzed without editing this file.
 */

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** Strings that break parsers, validators and SQL: control and format characters, odd URLs, odd dates. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\uD800",
  "\uDFFF\uD800",
  "\u202E\u2066",
  "\uFEFF",
  "\u2028\u2029",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧨👩‍👩‍👧‍👦",
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  "null",
  "undefined",
  "NaN",
  "[]",
  "{}",
  "0",
  "-1",
  "1e309",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "ftp://a.example/x",
  "data:text/html,<script>alert(1)</script>",
  "http://",
  "https://",
  "https:",
  "//a.example/x",
  "http://[::1",
  "http://a.example:99999/",
  "https://例え.テスト/パス?q=✓",
  "https://xn--80ak6aa92e.com/",
  "https://a.example/%",
  "https://a.example/\u0000",
  "https://user:pass@a.example/",
  "http://169.254.169.254/latest/meta-data/",
  "http://127.0.0.1:5432/",
  "https://0x7f.1/",
  "https://[::ffff:127.0.0.1]/",
  "http://localhost/",
  "https://a.example/*",
  "https://*.example/",
  "2026-02-30T00:00:00Z",
  "2026-11-20T25:61:61Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "2026-11-20T12:00:00+25:00",
  "2026-11-20",
  "1763640000",
  "../../../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "' OR 1=1 --",
  "'; drop table listings; --",
  "${jndi:ldap://x/a}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "critical\u0000",
  "ALL",
  "all ",
  "dead\n",
];

const nastyString = fc.constantFrom(...NASTY_STRINGS);
const oversizedString = fc.integer({ min: 2049, max: 3_000 }).map((n) => `https://a.example/${"a".repeat(n)}`);
const anyString = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.webUrl().map((u) => u + "\u0000") },
  { weight: 1, arbitrary: oversizedString },
);
const oddNumber = fc.oneof(
  fc.constantFrom(0, -1, -0, 0.5, 1.5, 11, 501, 5001, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value of the wrong kind for any field: numbers, strings, arrays, objects, null. */
export const oddValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 4, arbitrary: anyString },
    { weight: 2, arbitrary: oddNumber },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie("v"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(nastyString, { minLength: 51, maxLength: 60 }) },
    { weight: 1, arbitrary: fc.dictionary(anyString, tie("v"), { maxKeys: 3 }) },
  ),
})).v;

/** Field names a route's body schema knows, from the schema itself and its example. */
export function bodyKeys(def: AnyRouteDef): string[] {
  const shape = (def.body as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  return [...new Set([...Object.keys(shape), ...Object.keys((def.examples.request as object | undefined) ?? {})])];
}

/** JSON text of key/value pairs, keeping duplicate keys (JSON.parse keeps the last one). */
const objectText = (pairs: ReadonlyArray<readonly [string, unknown]>) =>
  `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",")}}`;

/** The text of a malformed body for a route: wrong types, duplicate keys, truncation, garbage. */
export function bodyText(def: AnyRouteDef): fc.Arbitrary<string> {
  const keys = bodyKeys(def);
  const key = keys.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: anyString }) : anyString;
  const valid = JSON.stringify(def.examples.request ?? {});
  const pairs = fc.array(fc.tuple(key, oddValue), { minLength: 0, maxLength: 6 });
  return fc.oneof(
    // Wrong field types and values, possibly with duplicate keys.
    { weight: 8, arbitrary: pairs.map(objectText) },
    // A valid example whose fields are then repeated with wrong values (the last one wins).
    { weight: 3, arbitrary: pairs.map((p) => objectText([...Object.entries(def.examples.request ?? {}), ...p])) },
    // Top-level values that are not objects.
    {
      weight: 2,
      arbitrary: fc
        .jsonValue({ maxDepth: 2 })
        .filter((v) => v === null || typeof v !== "object" || Array.isArray(v))
        .map((v) => JSON.stringify(v)),
    },
    // Truncated, prefixed or otherwise broken JSON.
    { weight: 2, arbitrary: fc.nat({ max: Math.max(0, valid.length - 1) }).map((n) => valid.slice(0, n)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `\uFEFF${valid}`,
        `${valid}${valid}`,
        `${valid},`,
        `[${valid}]`,
        `{'url': 'https://a.example'}`,
        "{url: 1}",
        '{"a":1}garbage',
        "NaN",
        "{}}",
        '{"__proto__":{"url":"https://a.example","urls":["https://a.example"]}}',
        '{"constructor":{"prototype":{"url":"x"}}}',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 5_000, max: 20_000 }).map((n) => "[".repeat(n) + "]".repeat(n)) },
    // Arbitrary text.
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
  );
}

/** Bodies above the 128 KiB limit. */
export const oversizedBody = fc.integer({ min: 128 * 1024 + 1, max: 200 * 1024 }).map((n) => `{"url":"https://a.example/${"x".repeat(n)}"}`);

/** A header value the Fetch API accepts: Latin-1 without CR, LF or NUL. */
export function headerValueOf(maxLength: number): fc.Arbitrary<string> {
  return fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength,
  });
}
export const headerValue = headerValueOf(200);

export const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.lookout+json"];
const WRONG_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonp",
  "application/json-patch",
  "json",
  "application/xml",
  "*/*",
  "application/octet-stream",
  "application /json",
];

/** A Content-Type header: JSON in several spellings, wrong types, garbage, or none. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 2, arbitrary: fc.constantFrom(...WRONG_TYPES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: headerValue },
);

/** Headers nobody asked for: random names, the known ones with garbage, and repeated ids. */
export const junkHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.oneof(
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
    fc.constantFrom("x-request-id", "x-forwarded-for", "accept", "accept-encoding", "authorization", "x-watch-secret", "cookie", "origin", "range"),
  ),
  headerValue,
  { maxKeys: 3 },
);

// ---- payment and credit headers ---------------------------------------------------------------

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
const hexOf = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: min, maxLength: max });

/** An accepted requirement: the real one, the real one with a field changed, or anything. */
function acceptedOf(real: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(real);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(real) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...keys), oddValue).map(([k, v]) => ({ ...real, [k]: v })) },
    { weight: 1, arbitrary: oddValue },
  );
}

/** An EIP-3009 authorization with some fields of the wrong form (or all of the right form). */
const authorization = fc.record(
  {
    from: fc.oneof(
      hexOf(40, 40).map((h) => `0x${h}`),
      oddValue,
    ),
    to: fc.oneof(
      hexOf(40, 40).map((h) => `0x${h}`),
      oddValue,
    ),
    value: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 256n }).map(String), oddValue),
    validAfter: fc.oneof(fc.constant("0"), fc.bigInt({ min: -1n, max: 2n ** 70n }).map(String), oddValue),
    validBefore: fc.oneof(fc.constant("99999999999"), fc.bigInt({ min: -1n, max: 2n ** 70n }).map(String), oddValue),
    nonce: fc.oneof(
      hexOf(64, 64).map((h) => `0x${h}`),
      hexOf(0, 80).map((h) => `0x${h}`),
      oddValue,
    ),
  },
  { requiredKeys: [] },
);

/** Every field of the right form, the signature forged: only the facilitator can refuse it. */
const forgedAuthorization = fc.record({
  signature: hexOf(130, 130).map((h) => `0x${h}`),
  authorization: fc.record({
    from: hexOf(40, 40).map((h) => `0x${h.toLowerCase()}`),
    to: hexOf(40, 40).map((h) => `0x${h.toLowerCase()}`),
    value: fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
    validAfter: fc.constantFrom("0", "1700000000"),
    validBefore: fc.constantFrom("99999999999", "1", "1800000000"),
    nonce: hexOf(64, 64).map((h) => `0x${h}`),
  }),
});

/** The inner payload: null, garbage, a half-formed authorization, or a well-formed forged one. */
const innerPayload = fc.oneof(
  { weight: 1, arbitrary: oddValue },
  { weight: 2, arbitrary: forgedAuthorization },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        signature: fc.oneof(
          hexOf(0, 200).map((h) => `0x${h}`),
          oddValue,
        ),
        authorization: fc.oneof({ weight: 4, arbitrary: authorization }, { weight: 1, arbitrary: oddValue }),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ signature: hexOf(130, 130).map((h) => `0x${h}`), permit2Authorization: oddValue }) },
);

/** A PAYMENT-SIGNATURE value: garbage text, base64 garbage, or a forged x402 v2 payload. */
export function paymentSignature(realAccepted: Record<string, unknown>): fc.Arbitrary<string> {
  const payload = fc.record(
    {
      x402Version: fc.oneof({ weight: 6, arbitrary: fc.constant(2) }, { weight: 1, arbitrary: oddValue }),
      accepted: acceptedOf(realAccepted),
      payload: innerPayload,
      resource: oddValue,
      extensions: oddValue,
    },
    { requiredKeys: ["x402Version", "accepted", "payload"] },
  );
  return fc.oneof(
    { weight: 2, arbitrary: headerValue },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map(b64) },
    { weight: 2, arbitrary: oddValue.map((v) => b64(JSON.stringify(v) ?? "null")) },
    { weight: 6, arbitrary: payload.map((p) => b64(JSON.stringify(p))) },
    { weight: 1, arbitrary: payload.map((p) => b64(JSON.stringify(p)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")) },
  );
}

/** An X-Credit-Id value: garbage, unknown uuids in several spellings, or nothing usable. */
export const creditHeader: fc.Arbitrary<string> = fc.oneof(
  headerValue,
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `{${u}}`),
  fc.uuid().map((u) => u.replace(/-/g, "")),
  fc.constantFrom("00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "' OR '1'='1", "null", "undefined", "../../etc/passwd"),
);

// ---- ids in paths -----------------------------------------------------------------------------

const TRAVERSALS = [
  "..%2f..%2fetc%2fpasswd",
  "..%252f..%252f",
  "%2e%2e%2f%2e%2e%2f",
  "..;",
  "..\\..\\windows\\win.ini",
  "....//....//etc//passwd",
  "%c0%ae%c0%ae%c0%af",
  "..%00",
  "%00",
  "%2500",
  ".%2e%2f",
  "%2F",
  "%5C",
  "%zz",
  "%",
  "%%",
  "%u002e",
];

/** A path segment for an id: garbage (percent-encoded), traversal attempts, or oversized. */
export const idSegment: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 3, arbitrary: anyString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "\uFFFD"))) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...TRAVERSALS), fc.string({ unit: "grapheme-ascii", maxLength: 10 })).map(([t, s]) => t + encodeURIComponent(s)),
    },
    { weight: 1, arbitrary: fc.uuid().map((u) => `${u}${encodeURIComponent("'--")}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((n) => "a".repeat(n)) },
  )
  // A segment that is itself "." or ".." (in any spelling) would be resolved away by the URL parser.
  .map((s) => (s === "" || /^(?:\.|%2e){1,2}$/i.test(s) ? `x${s}` : s));

/** Literal traversal after the route prefix; each resolves to a path that does not exist. */
export const RAW_TRAVERSALS = [
  "..",
  "../..",
  "../../../../etc/passwd",
  "../../../../../../../../../../etc/shadow",
  "./../../x",
  "%2e%2e/%2e%2e/%2e%2e/etc/passwd",
  "..//..//..//etc/passwd",
];

/** Whether a parsed body satisfies a route's schema (a well-formed request, not a malformed one). */
export function acceptedBy(schema: z.ZodType | undefined, text: string, optional: boolean): boolean {
  if (!schema) return true;
  if (text.trim() === "") return optional;
  try {
    // Request.text() decodes UTF-8 and drops a leading byte order mark, as RFC 8259 allows.
    return schema.safeParse(JSON.parse(text.replace(/^\uFEFF/, ""))).success;
  } catch {
    return false;
  }
}
