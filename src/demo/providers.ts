import type { Hex } from "viem";
import { anvilAccount } from "../chain/devnet-accounts.js";

/**
 * The billing namespaces of the demo. The service groups providers by payTo, so each demo
 * provider needs its own address; they come from indexes 11..20, 23 and 24 of the anvil mnemonic
 * (above the funded payers 1..9 and the service's own payTo at 10; 21 is the demo merchant, 22
 * the paid checker's wallet), so they are the same on every run and their keys are known, which
 * the reseller needs to pay its upstream.
 */
export const PROVIDERS = {
  skycast: { name: "Skycast Labs", index: null },
  atlas: { name: "Atlas Maps", index: 11 },
  lumen: { name: "Lumen AI", index: 12 },
  tickerwire: { name: "Tickerwire", index: 13 },
  scrapewell: { name: "Scrapewell", index: 14 },
  quickmint: { name: "QuickMint", index: 15 },
  nimbus: { name: "Nimbus Language", index: 16 },
  apex: { name: "Apex Alpha", index: 17 },
  oraclePulse: { name: "Oracle Pulse", index: 18 },
  canvas: { name: "Canvas Studio", index: 19 },
  relaymart: { name: "RelayMart", index: 20 },
  mirage: { name: "Mirage Labs", index: 23 },
  northwind: { name: "Northwind Data", index: 24 },
} as const satisfies Record<string, { name: string; index: number | null }>;

export type ProviderKey = keyof typeof PROVIDERS;

export interface ProviderBook {
  payTo(key: ProviderKey): string;
  name(key: ProviderKey): string;
  /** The provider's signing key; only derived providers (all but the one paid at opts.payTo) have one. */
  privateKey(key: ProviderKey): Hex;
}

/** `defaultPayTo` (the fleet's payTo option) receives Skycast Labs' payments. */
export function createProviderBook(defaultPayTo: string): ProviderBook {
  return {
    payTo: (key) => {
      const { index } = PROVIDERS[key];
      return index === null ? defaultPayTo : anvilAccount(index).address;
    },
    name: (key) => PROVIDERS[key].name,
    privateKey: (key) => {
      const { index } = PROVIDERS[key];
      if (index === null) throw new Error(`demo provider ${key} is paid at the fleet's payTo and has no known key`);
      return anvilAccount(index).privateKey;
    },
  };
}
