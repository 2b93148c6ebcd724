import { mnemonicToAccount } from "viem/accounts";
import { toHex, type Address, type Hex } from "viem";

/** Anvil's default mnemonic: its keys are public knowledge, which is the point on a devnet. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

/** Account 0 pays gas for settlements and is the token's only minter. */
export const FACILITATOR_ACCOUNT_INDEX = 0;
/** Accounts 1..9 are the funded wallets any demo client may pay from. */
export const DEMO_ACCOUNT_INDEXES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/**
 * payTo is index 10 of the same mnemonic: not one of anvil's ten pre-funded accounts and not a
 * payer, so its USDC balance is exactly what the service has earned on this devnet.
 */
export const PAY_TO_ACCOUNT_INDEX = 10;
/**
 * The demo fleet's own merchant (Skycast Labs, src/demo/providers.ts) is paid at index 21. It is
 * funded like a payer, so it can buy its own certificate by paying from its payTo (decision 0019).
 */
export const DEMO_MERCHANT_ACCOUNT_INDEX = 21;
/**
 * The paid checker's wallet in demo mode (decision 0051): a payer of its own, never a demo
 * client's, so its transfers on the devnet are exactly what the checker spent.
 */
export const CANARY_ACCOUNT_INDEX = 22;
/**
 * The demo's traffic agent pays from these (decision 0052): several wallets of their own, so the
 * chain shows distinct payers per listing and none of them is a demo client's or the checker's.
 */
export const TRAFFIC_ACCOUNT_INDEXES = [25, 26, 27] as const;

// Each derivation runs PBKDF2 (~25 ms); devnets in one process share the results.
const derived = new Map<number, DevAccount>();

/** Derives m/44'/60'/0'/0/{index} of the anvil mnemonic. */
export function anvilAccount(index: number): DevAccount {
  const cached = derived.get(index);
  if (cached) return { ...cached };
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
  const privateKey = account.getHdKey().privateKey;
  if (!privateKey) throw new Error(`no private key derived for anvil account ${index}`);
  const result = { address: account.address, privateKey: toHex(privateKey) };
  derived.set(index, result);
  return { ...result };
}
