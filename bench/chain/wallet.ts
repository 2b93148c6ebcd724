import { createWalletClient, http } from "viem";
import type { Devnet } from "../../src/chain/devnet.js";

/** The facilitator's (and minter's) account on the devnet: it sends every seeding transaction. */
export const devnetWallet = (devnet: Pick<Devnet, "facilitatorAccount" | "chain" | "rpcUrl">) =>
  createWalletClient({ account: devnet.facilitatorAccount, chain: devnet.chain, transport: http(devnet.rpcUrl) });
