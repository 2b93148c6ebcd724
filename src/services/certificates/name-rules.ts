import { CERTIFICATE } from "./constants.js";

/**
 * When a certificate's name imitates another provider's service (decision 0019). Names are
 * compared by a skeleton: compatibility-decomposed, accents dropped, lower-cased, common
 * look-alikes folded (Cyrillic and Greek letters that print as Latin ones, 0/o, 1/l/i, 3/e,
 * 5/s, $/s, @/a), and everything but letters and digits removed. "Сoinbase" (Cyrillic С),
 * "C0INBASE" and "coin-base" all read "coinbase".
 */
const LOOK_ALIKES: Record<string, string> = {
  ...Object.fromEntries([..."аеорсухіјѕһԁӏ"].map((ch, i) => [ch, "aeopcyxijshdi"[i]!])),
  ...Object.fromEntries([..."οανικρυ"].map((ch, i) => [ch, "oavikpu"[i]!])),
  "0": "o",
  "1": "i",
  l: "i",
  "3": "e",
  "5": "s",
  $: "s",
  "@": "a",
};

const fold = (name: string) => [...name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()].map((ch) => LOOK_ALIKES[ch] ?? ch).join("");

/** The skeleton two names are compared by. */
export const nameSkeleton = (name: string) => fold(name).replace(/[^\p{L}\p{N}]/gu, "");
const words = (name: string) =>
  fold(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * Brands an impostor reaches for first. One is protected inside longer names: a name mentioning
 * it imitates another provider's service that mentions it too, however the rest differs.
 * Brands of 7+ characters match anywhere in the skeleton, shorter ones as a whole word.
 */
export const WELL_KNOWN_BRANDS = [
  "Coinbase",
  "Circle",
  "Cloudflare",
  "Google",
  "OpenAI",
  "Anthropic",
  "Stripe",
  "PayPal",
  "Visa",
  "Mastercard",
  "Chainlink",
  "Binance",
  "MetaMask",
];
const BRANDS = WELL_KNOWN_BRANDS.map(nameSkeleton);

function brandsIn(name: string): string[] {
  const skeleton = nameSkeleton(name);
  const ws = new Set(words(name));
  return BRANDS.filter((b) => (b.length >= 7 ? skeleton.includes(b) : ws.has(b)));
}

export type ImitationRule = "same_name" | "contains" | "contained_in" | "brand";

/**
 * How `name` imitates `other` (another provider's service name), or null when it does not. A
 * name contains another only when that one has two words or more: a one-word name ("Weather")
 * is too generic to reserve inside longer names, unless it is a well-known brand.
 */
export function imitation(name: string, other: string): ImitationRule | null {
  const [a, b] = [nameSkeleton(name), nameSkeleton(other)];
  if (a === "" || b === "") return null;
  if (a === b) return "same_name";
  const min = CERTIFICATE.nameMatchMinChars;
  if (b.length >= min && words(other).length >= 2 && a.includes(b)) return "contains";
  if (a.length >= min && b.includes(a)) return "contained_in";
  const brands = brandsIn(name);
  return brands.length > 0 && brandsIn(other).some((x) => brands.includes(x)) ? "brand" : null;
}
