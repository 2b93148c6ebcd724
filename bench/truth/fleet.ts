import type { PaymentRequirements } from "@x402/core/types";
import { addedCatalogItem } from "../../src/demo/catalog/catalog-item.js";
import { catalogApp } from "../../src/demo/catalog/catalog-app.js";
import { CatalogStore } from "../../src/demo/catalog/catalog-store.js";
import { CATALOG_PATH } from "../../src/demo/constants.js";
import { openSlot, type ServerSlot } from "../../src/demo/servers/slot.js";
import { usdcToAtomic } from "@x402-lookout/contracts/usdc";
import { spawnHosts, type BenchHost, type EndpointState, type HostLog } from "./hosts.js";

/** settled: listed with an hour of history before the run; refusable: alone on its host; new: listed mid-run. */
export type Group = "settled" | "refusable" | "new";

export interface BenchEndpoint {
  url: string;
  path: string;
  method: "GET" | "POST";
  host: BenchHost;
  group: Group;
  /** The truth: what it answers from `at` on (epoch ms), oldest first. */
  timeline: Array<{ at: number; state: EndpointState }>;
}

export interface BenchFleet {
  catalogUrl: string;
  endpoints: BenchEndpoint[];
  hosts: BenchHost[];
  /** Each host's request log (as the host process saw it), in the order of `hosts`. */
  logs(): Promise<HostLog[]>;
  /** Lists `count` new endpoints now (on a new host unless one is given); returns them. */
  addNew(count: number, label: string, on?: BenchHost): Promise<BenchEndpoint[]>;
  setState(e: BenchEndpoint, state: EndpointState, at: number): void;
  stop(): Promise<void>;
}

export interface FleetOptions {
  hosts: number;
  perHost: number;
  refusable: number;
  network: string;
  asset: string;
}

const payToOf = (n: number) => `0x${(0xb000 + n).toString(16).padStart(40, "0")}`;
const priceOf = (i: number) => (0.001 * (1 + (i % 5))).toFixed(3);
// Used before the catalog: every service has a last call two days old, so none is a new provider.
const quality = (now: number) => ({ l30DaysTotalCalls: 900, l30DaysUniquePayers: 40, lastCalledAt: new Date(now - 2 * 86_400_000).toISOString() });

/**
 * The bench's own labelled fleet on loopback: `hosts` hosts of `perHost` endpoints (services of ten,
 * one endpoint in fifty failing with 500 from the start, one in seven answering a v1 challenge,
 * the rest v2), `refusable` hosts of one endpoint each (in a service of a shared host, so a refused
 * one is not a whole dead service), and a Bazaar-format catalog of them all.
 */
export async function startBenchFleet(o: FleetOptions): Promise<BenchFleet> {
  const process = await spawnHosts();
  const store = new CatalogStore();
  const slot: ServerSlot = await openSlot("127.0.0.1");
  slot.mount(catalogApp(store, slot.origin).fetch);
  const hosts: BenchHost[] = [];
  const endpoints: BenchEndpoint[] = [];
  const template = (payTo: string): PaymentRequirements => ({
    scheme: "exact",
    network: o.network as PaymentRequirements["network"],
    amount: "0",
    asset: o.asset,
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name: "USDC", version: "2" },
  });
  const newHost = async (n: number) => {
    const host = await process.start({ network: o.network, asset: o.asset, payTo: payToOf(n), amountAtomic: usdcToAtomic(priceOf(n)) });
    hosts.push(host);
    return host;
  };
  const list = (host: BenchHost, provider: number, path: string, i: number, service: string, state: EndpointState, group: Group, at: number) => {
    const url = `${host.origin}${path}`;
    host.set(path, state === "refused" ? "v2" : state);
    const method: BenchEndpoint["method"] = i % 3 === 0 ? "GET" : "POST";
    const input = { url, method, serviceName: service, price: priceOf(provider), payTo: payToOf(provider), tags: ["data"], quality: quality(at) };
    store.upsert(addedCatalogItem(input, template(payToOf(provider)), payToOf(provider), new Date(at)));
    const e: BenchEndpoint = { url, path, method, host, group, timeline: [{ at: group === "new" ? at : Number.NEGATIVE_INFINITY, state }] };
    endpoints.push(e);
    return e;
  };

  const now = Date.now();
  for (let h = 0; h < o.hosts; h++) {
    const host = await newHost(h);
    for (let j = 0; j < o.perHost; j++) {
      const i = h * o.perHost + j;
      const state = i % 50 === 25 ? "500" : i % 7 === 3 ? "v1" : "v2";
      list(host, h, `/t/${i}`, i, `Bench ${h} service ${Math.floor(j / 10)}`, state, "settled", now);
    }
  }
  for (let k = 0; k < o.refusable; k++) list(await newHost(k % o.hosts), k % o.hosts, `/r/${k}`, k, `Bench ${k % o.hosts} service 0`, "v2", "refusable", now);

  let added = 0;
  return {
    catalogUrl: `${slot.origin}${CATALOG_PATH}`,
    endpoints,
    hosts,
    async addNew(count, label, on) {
      const provider = on ? hosts.indexOf(on) : o.hosts + 1 + added;
      const host = on ?? (await newHost(provider));
      const at = Date.now();
      return Array.from({ length: count }, (_, j) => {
        const n = added++;
        const state = j % 8 === 5 ? "500" : j % 4 === 1 ? "v1" : "v2";
        return list(host, provider, `/n/${n}`, n, `Bench new ${label} service ${Math.floor(j / 10)}`, state, "new", at);
      });
    },
    setState(e, state, at) {
      e.timeline.push({ at, state });
      e.host.set(e.path, state);
    },
    async logs() {
      const logs = await process.logs();
      return hosts.map((h) => logs.get(h.id)!);
    },
    async stop() {
      process.stop();
      await slot.close(0);
    },
  };
}
