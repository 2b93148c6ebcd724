import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { pino } from "pino";
import { body } from "../helpers/http.js";
import type { Devnet } from "../../src/chain/devnet.js";
import { acquireDevnet } from "../helpers/shared-devnet.js";
import { createLocalFacilitator } from "../../src/chain/facilitator.js";
import { startDemoFleet, type DemoCatalogItem, type DemoEndpoint, type DemoFleet, type DemoFleetOptions } from "../../src/demo/index.js";

export const testLog = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

export interface FleetOnDevnet {
  devnet: Devnet;
  fleet: DemoFleet;
  stop(): Promise<void>;
}

/** A real devnet, its local facilitator, and the demo fleet settling through it. */
export async function startFleetOnDevnet(
  opts: Pick<DemoFleetOptions, "slowMs" | "flapPeriodMs" | "clock" | "quoteSwitchAfterMs"> = {},
): Promise<FleetOnDevnet> {
  const devnet = await acquireDevnet();
  try {
    const fleet = await startDemoFleet({
      log: testLog,
      facilitator: createLocalFacilitator(devnet),
      network: devnet.network,
      payTo: devnet.payTo,
      asset: { address: devnet.usdcAddress, name: "USDC", version: "2" },
      ...opts,
    });
    return {
      devnet,
      fleet,
      stop: async () => {
        await fleet.stop();
        await devnet.stop();
      },
    };
  } catch (err) {
    await devnet.stop();
    throw err;
  }
}

/** The request a prober makes: the listed method, no payment, `{}` as a POST body. */
export function naked(url: string, method = "GET"): Promise<Response> {
  return fetch(url, {
    method,
    redirect: "manual",
    ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}),
    signal: AbortSignal.timeout(10_000),
  });
}

export const nakedEndpoint = (e: DemoEndpoint) => naked(e.url, e.method);

export function challengeOf(res: Response): PaymentRequired {
  const header = res.headers.get("payment-required");
  if (!header) throw new Error(`no PAYMENT-REQUIRED header on a ${res.status} answer`);
  return decodePaymentRequiredHeader(header);
}

/** Every catalog item, page by page (bounded: at most 100 pages). */
export async function readCatalog(catalogUrl: string, limit: number): Promise<{ items: DemoCatalogItem[]; pages: any[] }> {
  const items: DemoCatalogItem[] = [];
  const pages: any[] = [];
  for (let offset = 0, n = 0; n < 100; n++, offset += limit) {
    const page = await body(await fetch(`${catalogUrl}?type=http&limit=${limit}&offset=${offset}`));
    pages.push(page);
    items.push(...page.items);
    if (offset + limit >= page.pagination.total) break;
  }
  return { items, pages };
}

export const byKind = (fleet: DemoFleet, kind: DemoEndpoint["kind"]) => fleet.endpoints.filter((e) => e.kind === kind);

export function one(fleet: DemoFleet, kind: DemoEndpoint["kind"]): DemoEndpoint {
  const found = byKind(fleet, kind)[0];
  if (!found) throw new Error(`the fleet has no ${kind} endpoint`);
  return found;
}
