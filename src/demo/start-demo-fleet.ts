import { systemClock } from "../lib/clock.js";
import { addedCatalogItem, catalogItem } from "./catalog/catalog-item.js";
import { catalogApp } from "./catalog/catalog-app.js";
import { CatalogStore } from "./catalog/catalog-store.js";
import { CATALOG_PATH, DEFAULT_FLAP_PERIOD_MS, DEFAULT_HOST, DEFAULT_QUOTE_SWITCH_MS, DEFAULT_SLOW_MS, STOP_GRACE_MS } from "./constants.js";
import { createPaymentTerms, describeEndpoint, layOut } from "./fleet-layout.js";
import { DELIVERY_LISTINGS } from "./plan/delivery.js";
import { ECOSYSTEM_SHAPE_LISTINGS } from "./plan/ecosystem-shapes.js";
import { MARKETPLACE_LISTINGS } from "./plan/marketplace.js";
import { PREMIUM_LISTINGS, WILDCARD_LISTINGS, ZOMBIE_LISTINGS } from "./plan/other-hosts.js";
import { QUOTE_TRAP_LISTINGS } from "./plan/quote-traps.js";
import { resellerListings } from "./plan/reseller.js";
import { deliveryApp } from "./servers/delivery-app.js";
import { merchantApp } from "./servers/merchant-app.js";
import { requirementFor } from "./servers/payment-terms.js";
import { resellerApp } from "./servers/reseller-app.js";
import { openSlot, reserveDeadPort, type ServerSlot } from "./servers/slot.js";
import { spaApp } from "./servers/spa-app.js";
import { wildcardApp } from "./servers/wildcard-app.js";
import type { DemoFleet, DemoFleetOptions, DemoHosts } from "./types.js";

/**
 * Starts the demo ecosystem on loopback: a marketplace host of healthy and faulty merchants,
 * separate hosts for a zombie service, a premium (decoy) provider, a wildcard-402 host, an SPA
 * host, a reseller, Mirage Labs' quote traps, Northwind Data's merchants that settle first (most
 * then fail to deliver), a listed port nothing answers on, and a Bazaar-format catalog of all of
 * them. Paid endpoints challenge through the x402 SDK (its Hono middleware, or its core settling
 * first for Northwind) on `opts.facilitator`.
 */
export async function startDemoFleet(opts: DemoFleetOptions): Promise<DemoFleet> {
  const host = opts.host ?? DEFAULT_HOST;
  const clock = opts.clock ?? systemClock;
  const slowMs = opts.slowMs ?? DEFAULT_SLOW_MS;
  const flapPeriodMs = opts.flapPeriodMs ?? DEFAULT_FLAP_PERIOD_MS;
  const quoteSwitchAfterMs = opts.quoteSwitchAfterMs ?? DEFAULT_QUOTE_SWITCH_MS;
  if (!(slowMs >= 0) || !(flapPeriodMs > 0) || !(quoteSwitchAfterMs >= 0)) {
    throw new Error("demo fleet: slowMs and quoteSwitchAfterMs must be >= 0 and flapPeriodMs > 0");
  }
  const log = opts.log.child({ component: "demo-fleet" });
  const terms = await createPaymentTerms(opts);

  const slots: ServerSlot[] = [];
  const open = async () => {
    const slot = await openSlot(host);
    slots.push(slot);
    return slot;
  };
  const closeAll = (graceMs: number) => Promise.all(slots.map((s) => s.close(graceMs))).then(() => undefined);
  try {
    const [catalog, marketplace, zombie, premium, wildcard, spa, reseller, quotes, delivery] = [
      await open(),
      await open(),
      await open(),
      await open(),
      await open(),
      await open(),
      await open(),
      await open(),
      await open(),
    ];
    // Taken last, so no fleet server can be handed the port after it was released.
    const refusedHostPort = await reserveDeadPort(host);
    const hosts: DemoHosts = {
      catalog: catalog.origin,
      marketplace: marketplace.origin,
      zombie: zombie.origin,
      premium: premium.origin,
      wildcard: wildcard.origin,
      spa: spa.origin,
      reseller: reseller.origin,
      quotes: quotes.origin,
      delivery: delivery.origin,
      refused: `http://${refusedHostPort}`,
    };
    const resold = resellerListings(marketplace.hostPort);
    const switchAt = new Date(clock.now().getTime() + quoteSwitchAfterMs);
    const common = { terms, clock, slowMs, flapPeriodMs, switchAt };
    marketplace.mount(merchantApp({ ...common, origin: marketplace.origin, listings: [...MARKETPLACE_LISTINGS, ...ECOSYSTEM_SHAPE_LISTINGS] }).fetch);
    zombie.mount(merchantApp({ ...common, origin: zombie.origin, listings: ZOMBIE_LISTINGS }).fetch);
    premium.mount(merchantApp({ ...common, origin: premium.origin, listings: PREMIUM_LISTINGS }).fetch);
    quotes.mount(merchantApp({ ...common, origin: quotes.origin, listings: QUOTE_TRAP_LISTINGS }).fetch);
    wildcard.mount(wildcardApp({ terms, clock, origin: wildcard.origin, listings: WILDCARD_LISTINGS }).fetch);
    delivery.mount(deliveryApp({ terms, clock, origin: delivery.origin, listings: DELIVERY_LISTINGS }).fetch);
    spa.mount(spaApp({ origin: spa.origin }).fetch);
    reseller.mount(resellerApp({ terms, clock, log, origin: reseller.origin, upstreamOrigin: marketplace.origin, listings: resold }).fetch);

    const store = new CatalogStore();
    const now = clock.now();
    const placed = layOut(hosts, resold);
    const items = await Promise.all(placed.map((p) => catalogItem(terms, p.spec, p.url, now)));
    items.forEach((item) => store.upsert(item));
    catalog.mount(catalogApp(store, catalog.origin).fetch);
    const template = await requirementFor(terms, MARKETPLACE_LISTINGS[0]!);
    const endpoints = placed.map((p, i) => describeEndpoint(terms, p, items[i]!, marketplace.origin));

    const catalogUrl = `${catalog.origin}${CATALOG_PATH}`;
    // A newcomer's first URLs to try: one of each trap kind (docs/demo-fleet.md explains them).
    const traps = Object.fromEntries(endpoints.filter((e) => e.kind !== "healthy" && e.kind !== "paid_ok").map((e) => [e.kind, e.url]));
    log.info({ catalogUrl, endpoints: endpoints.length, hosts, slowMs, flapPeriodMs, quoteSwitchAt: switchAt, traps }, "demo fleet listening");
    let stopped: Promise<void> | undefined;
    return {
      catalogUrl,
      endpoints,
      hosts,
      addListing: (listing) => store.upsert(addedCatalogItem(listing, template, opts.payTo, clock.now())),
      removeListing: (url) => store.remove(url),
      stop: () => (stopped ??= closeAll(STOP_GRACE_MS)),
    };
  } catch (err) {
    await closeAll(0);
    throw err;
  }
}
