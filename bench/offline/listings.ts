import type { VerdictEntry } from "@x402-lookout/contracts/snapshot/schemas";
import { USDC, verdictEntry } from "../../test/helpers/signed-snapshots.js";

/** The catalog the benchmark's snapshot holds: 100 listings a host, as bench:preflight's. */
export const listingUrl = (i: number) => `https://h${Math.floor(i / 100)}.bench.example/api/${i}`;
const payTo = (i: number) => `0x${(Math.floor(i / 100) + 1).toString(16).padStart(40, "0")}`;
const amount = (i: number) => String(1_000 + (i % 997) * 10);

/** Listing i: 80 % allow, 10 % skip (not ok), 10 % use_alternatives; each host its own payTo. */
export function listing(i: number): VerdictEntry {
  const kind = i % 10;
  return verdictEntry(listingUrl(i), {
    method: i % 7 === 0 ? "POST" : "GET",
    ok: kind !== 8,
    action: kind === 8 ? "skip" : kind === 9 ? "use_alternatives" : "pay",
    warnings: kind === 8 ? ["zombie"] : [],
    pay_to: payTo(i),
    amount: amount(i),
    price_usdc: (Number(amount(i)) / 1e6).toFixed(6),
    seq: 1 + (i % 5_000),
  });
}

export type QueryKind = "hit" | "mismatch" | "miss";
export interface Query {
  kind: QueryKind;
  url: string;
  method: string;
  requirement: { scheme: string; network: string; asset: string; payTo: string; amount: string; maxTimeoutSeconds: number };
}

/**
 * `n` decisions over random listings, a third of each kind: a catalogued listing with the quote
 * it was judged on (checksum-cased payTo, a query string on half), the same with another amount
 * or payTo, and an address no listing has (another path on a catalogued host).
 */
export function queries(n: number, listings: number): Query[] {
  const out: Query[] = [];
  for (let q = 0; q < n; q++) {
    const i = Math.floor(Math.random() * listings);
    const kind: QueryKind = q % 3 === 0 ? "hit" : q % 3 === 1 ? "mismatch" : "miss";
    const e = listing(i);
    const requirement = {
      scheme: "exact",
      network: e.network!,
      asset: USDC,
      payTo: e.pay_to!.toUpperCase().replace("0X", "0x"),
      amount: e.amount!,
      maxTimeoutSeconds: 60,
    };
    if (kind === "mismatch") {
      if (q % 2 === 0) requirement.amount = String(Number(e.amount) + 1);
      else requirement.payTo = payTo(i + 100);
    }
    const url = kind === "miss" ? `${listingUrl(i)}/v2` : q % 2 === 0 ? `${e.url}?q=${q}` : e.url;
    out.push({ kind, url, method: e.method, requirement });
  }
  return out;
}
