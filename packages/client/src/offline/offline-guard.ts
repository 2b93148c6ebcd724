import type { PaymentRequired } from "@x402/core/types";
import { LookoutError } from "../errors.js";
import type { GuardDecision } from "../guard/decision.js";
import { createGuardCore } from "../guard/guard-core.js";
import { DEFAULT_BLOCK_ACTIONS } from "../guard/policy.js";
import { decideEntry, type OfflineDecision, type OfflineRequirement } from "./decide.js";
import { VerdictStore } from "./store.js";
import type { OfflineGuard, OfflineGuardOptions } from "./types.js";

/** Decides payments from a signed verdict snapshot kept current by deltas (docs/offline-guard.md). */
export function createOfflineGuard(options: OfflineGuardOptions): OfflineGuard {
  const { lookout } = options;
  const now = options.now ?? Date.now;
  const blockActions = options.blockActions ?? DEFAULT_BLOCK_ACTIONS;
  const onError = options.onError ?? (() => {});
  const store = new VerdictStore(lookout.keys, now);
  let needSnapshot = true;
  let running: Promise<void> | null = null;

  async function update(): Promise<void> {
    if (store.seq === null || needSnapshot) {
      await store.applySnapshot(await lookout.verdictSnapshot({}));
      needSnapshot = false;
      return;
    }
    for (;;) {
      const since = store.seq;
      const deltas = await lookout.verdictDeltas({ since }).catch((error: unknown) => {
        // 400: `since` is older than the deltas reach back (48 h); only a new snapshot helps.
        if (error instanceof LookoutError && error.status === 400) needSnapshot = true;
        throw error;
      });
      await store.applyDeltas(deltas);
      if (!deltas.truncated || deltas.seq === since) return;
    }
  }

  const refresh = () => (running ??= update().finally(() => (running = null)));
  const ready = refresh().then(
    () => true,
    (error: unknown) => {
      onError(error);
      return false;
    },
  );
  const timer = setInterval(() => void refresh().catch(onError), options.refreshMs ?? 60_000);
  (timer as { unref?: () => void }).unref?.();

  function decide(url: string, method: string | undefined, requirement?: OfflineRequirement): OfflineDecision | null {
    if (now() >= store.expiresAt) return null;
    const entry = store.get(url, method);
    return entry === undefined ? null : decideEntry(entry, requirement, blockActions);
  }

  // check is guardFetch's quote stage with this guard as its snapshot: one core, the same modes and decisions.
  const core = createGuardCore({ ...options, blockActions, offline: { decide } });
  async function check(url: string, method: string, paymentRequired: PaymentRequired, selected = paymentRequired.accepts[0]): Promise<GuardDecision> {
    if (!selected) throw new TypeError("the 402 offers no requirement to check");
    const u = URL.canParse(url) ? new URL(url) : undefined;
    if (u?.protocol !== "http:" && u?.protocol !== "https:") throw new TypeError(`not an http(s) URL: ${url}`);
    return core.quote({ url: `${u.origin}${u.pathname}`, method: method.toUpperCase() }, paymentRequired, selected);
  }

  return {
    ready,
    get seq() {
      return store.seq;
    },
    get size() {
      return store.size;
    },
    decide,
    check,
    refresh,
    stop: () => clearInterval(timer),
  };
}
