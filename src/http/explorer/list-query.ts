import { z } from "zod";
import { defaultDir } from "./list-links.js";
import { EXPLORER, LIST_WARNINGS, SORT_KEYS, VERDICTS, type ListQuery } from "../../services/index.js";

// A GET form sends every field, empty ones as "": those mean "no filter", not a bad value.
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const text = (what: string) => z.preprocess(blank, z.string().max(EXPLORER.maxText, `${what} is at most ${EXPLORER.maxText} characters`).optional());
const price = (name: string) =>
  z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,6})?$/, `${name} is a USDC amount such as 0.01 (at most 6 decimals, below 1,000,000,000)`)
      .optional(),
  );
const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.preprocess(blank, z.enum(values, { error: `${name} is one of ${values.join(", ")}` }).optional());

const QUERY = z
  .object({
    q: text("the search"),
    verdict: oneOf("verdict", VERDICTS),
    warning: oneOf("warning", LIST_WARNINGS),
    category: text("the category"),
    network: text("the network"),
    min_price: price("min_price"),
    max_price: price("max_price"),
    sort: oneOf("sort", SORT_KEYS),
    dir: oneOf("dir", ["asc", "desc"] as const),
    page: z.preprocess(
      blank,
      z.coerce
        .number({ error: "page is a whole number" })
        .int("page is a whole number")
        .min(1, "page starts at 1")
        .max(EXPLORER.maxPage, `page is at most ${EXPLORER.maxPage}: narrow the search to see other endpoints`)
        .optional(),
    ),
  })
  .refine((v) => v.min_price === undefined || v.max_price === undefined || Number(v.min_price) <= Number(v.max_price), {
    message: "min_price is above max_price",
  });

export type ParsedQuery = { ok: true; query: ListQuery } | { ok: false; message: string };

/** The list's query string as the service takes it, or what is wrong with it in plain words. */
export function parseListQuery(raw: Record<string, string>): ParsedQuery {
  const r = QUERY.safeParse(raw);
  if (!r.success) return { ok: false, message: r.error.issues.map((i) => i.message).join("; ") };
  const v = r.data;
  const query: ListQuery = { sort: v.sort ?? "listed", dir: v.dir ?? defaultDir(v.sort ?? "listed"), page: v.page ?? 1 };
  if (v.q?.trim()) query.q = v.q.trim();
  if (v.verdict) query.verdict = v.verdict;
  if (v.warning) query.warning = v.warning;
  if (v.category) query.category = v.category.trim();
  if (v.network) query.network = v.network.trim();
  if (v.min_price !== undefined) query.minPrice = v.min_price;
  if (v.max_price !== undefined) query.maxPrice = v.max_price;
  return { ok: true, query };
}

/** Whether a query narrows the list (a search or any filter) or pages past the first: those are rate-limited. */
export const costsToken = (q: ListQuery): boolean =>
  Boolean(q.q || q.verdict || q.warning || q.category || q.network || q.minPrice !== undefined || q.maxPrice !== undefined || q.page > 1);
