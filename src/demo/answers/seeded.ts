/**
 * Deterministic pseudo-random numbers from a string, so a demo answer for "Lisbon" is the same
 * on every call and every run, yet different from the answer for "Oslo".
 */
export function seeded(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const round = (value: number, digits: number): number => Number(value.toFixed(digits));

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

export const text = (value: unknown, fallback: string): string => (typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, 200) : fallback);

export const num = (value: unknown, fallback: number): number => {
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
};

/** An answer to a paid call: input is the query (GET) or the JSON body (POST). */
export type Answer = (input: Record<string, unknown>, now: Date) => unknown;
