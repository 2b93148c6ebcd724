import { CATEGORY_SYNONYMS, type Category } from "./constants.js";

const LOOKUP: ReadonlyMap<string, Category> = new Map(
  Object.entries(CATEGORY_SYNONYMS).flatMap(([category, words]) => words.map((w) => [w, category as Category] as const)),
);

/** Lower case, spaces and underscores as '-': "Market Data" and "market_data" meet. */
export function tagKey(tag: string): string {
  return tag
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");
}

/**
 * The category of a listing: the first tag that maps onto the vocabulary; "other" when it has
 * tags but none maps; null without tags.
 */
export function categoryOf(tags: readonly string[]): Category | null {
  for (const tag of tags) {
    const category = LOOKUP.get(tagKey(tag));
    if (category) return category;
  }
  return tags.length > 0 ? "other" : null;
}

/**
 * Whether a listing's category names what it is (decision 0039). None, "other", and a category
 * its tags give only through a later, umbrella tag ("translation", "ai" -> ai: the first tag,
 * what it is, maps onto nothing) are fallbacks, which alternatives do not match on.
 */
export function categoryIsSet(category: string | null, tags: readonly string[] | null): boolean {
  if (category === null || category === "other") return false;
  const [first, ...later] = tags ?? [];
  return first === undefined || LOOKUP.get(tagKey(first)) === category || categoryOf(later) !== category;
}

/** The lower-cased tags the vocabulary does not map: what a listing is, more narrowly than a category says. */
export const specificTags = (tags: readonly string[] | null): string[] => (tags ?? []).filter((t) => !LOOKUP.has(tagKey(t))).map((t) => t.toLowerCase());
