import { sql } from "kysely";
import type { DbHandle } from "../../src/db/client.js";

/** One preflight answer over HTTP, with when it was asked and when it came. */
export interface Answer {
  url: string;
  sentAt: number;
  gotAt: number;
  ok: boolean;
  warnings: string[];
  confidence: number;
  action: string;
}

interface Watched {
  until: (a: Answer) => boolean;
  /** Listed: asked only once the catalog listing exists (an unknown URL would get a live probe). */
  listed: boolean;
}

/** How often each watched URL is asked; the time figures carry up to this much polling delay. */
export const POLL_MS = 1_000;

/**
 * Asks the real API (credit-paid preflight) about each watched URL once a second until its
 * `until` holds, keeping every answer. URLs wait until the ingester has listed them.
 */
export function startTracker(db: DbHandle, baseUrl: string, creditId: string) {
  const watched = new Map<string, Watched>();
  const answers: Answer[] = [];
  let errors = 0;
  let stopped = false;
  const ask = async (url: string): Promise<Answer | null> => {
    const sentAt = Date.now();
    try {
      const res = await fetch(`${baseUrl}/api/v1/preflight`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-credit-id": creditId },
        body: JSON.stringify({ url }),
      });
      if (res.status !== 200) throw new Error(`preflight ${res.status}`);
      const r = (await res.json()) as { ok: boolean; warnings: string[]; confidence: number; recommended_action: string };
      return { url, sentAt, gotAt: Date.now(), ok: r.ok, warnings: r.warnings, confidence: r.confidence, action: r.recommended_action };
    } catch {
      errors++;
      return null;
    }
  };
  const round = async () => {
    const waiting = [...watched].filter(([, w]) => !w.listed).map(([u]) => u);
    if (waiting.length > 0) {
      const { rows } = await sql<{ url: string }>`select url from listings where url = any(${waiting}::text[]) and is_active`.execute(db.db);
      for (const r of rows) watched.get(r.url)!.listed = true;
    }
    const due = [...watched].filter(([, w]) => w.listed);
    await Promise.all(
      due.map(async ([url, w]) => {
        const a = await ask(url);
        if (!a) return;
        answers.push(a);
        if (w.until(a)) watched.delete(url);
      }),
    );
  };
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      await round();
      await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (Date.now() - started))));
    }
  })();
  return {
    answers,
    watch: (url: string, until: (a: Answer) => boolean) => void watched.set(url, { until, listed: false }),
    get pending() {
      return watched.size;
    },
    get errors() {
      return errors;
    },
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

export type Tracker = ReturnType<typeof startTracker>;
