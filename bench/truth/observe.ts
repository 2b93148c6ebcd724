import type { DbHandle } from "../../src/db/client.js";
import type { BenchEndpoint } from "./fleet.js";
import { sampleAgreement, sampleVerdicts, type Agreement, type VerdictSample } from "./samples.js";

const VERDICT_EVERY_MS = 60_000;
const AGREEMENT_EVERY_MS = 30_000;
/** Settled endpoints added at random to each agreement sample, beside every listing that changed or is new. */
const RANDOM_SETTLED = 30;

/**
 * Until `end`: every minute the stored verdict of every listing (scored for precision and
 * recall), every half minute preflight, forensics and the stored verdict of the interesting URLs
 * side by side; a last verdict sample at the end.
 */
export async function observe(db: DbHandle, baseUrl: string, creditId: string, end: number, urls: () => string[], bench: readonly BenchEndpoint[]) {
  const verdicts: VerdictSample[] = [];
  const agreements: Agreement[] = [];
  let inFlux = 0;
  let failed = 0;
  let nextVerdict = Date.now() + VERDICT_EVERY_MS;
  let nextAgreement = Date.now() + AGREEMENT_EVERY_MS;
  for (;;) {
    const wake = Math.min(nextVerdict, nextAgreement, end);
    await new Promise((r) => setTimeout(r, Math.max(0, wake - Date.now())));
    if (Date.now() >= end) break;
    if (Date.now() >= nextAgreement) {
      const settled = bench.filter((e) => e.group === "settled");
      const random = Array.from({ length: RANDOM_SETTLED }, () => settled[Math.floor(Math.random() * settled.length)]!.url);
      const s = await sampleAgreement(db, baseUrl, creditId, [...new Set([...urls(), ...random])]);
      agreements.push(...s.agreements);
      inFlux += s.inFlux;
      failed += s.failed;
      nextAgreement += AGREEMENT_EVERY_MS;
    }
    if (Date.now() >= nextVerdict) {
      verdicts.push(await sampleVerdicts(db));
      nextVerdict += VERDICT_EVERY_MS;
    }
  }
  verdicts.push(await sampleVerdicts(db));
  return { verdicts, agreements, inFlux, failed };
}
