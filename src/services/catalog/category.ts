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
