import { getAddress, multicall3Abi, encodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractArtifacts } from "../../src/chain/artifacts.js";
import { DEMO_USDC_BALANCE, type Devnet } from "../../src/chain/devnet.js";
import { anvilAccount } from "../../src/chain/devnet-accounts.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { isProcessRunning, startTestDevnet, waitFor } from "./helpers.js";

// Anvil's well-known accounts 0..9 for the default mnemonic.
const ANVIL_ACCOUNTS = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
  "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
  "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
  "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
] as const;

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startTestDevnet();
});

afterAll(async () => {
  await devnet?.stop();
});

describe("startDevnet", () => {
  it("serves chain id 84532 on a loopback port", async () => {
    expect(devnet.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(devnet.chainId).toBe(84532);
    expect(devnet.network).toBe("eip155:84532");
    expect(await devnet.publicClient.getChainId()).toBe(84532);
  });

  it("uses anvil account 0 as facilitator and accounts 1..9 as demo payers", () => {
    expect(devnet.facilitatorAccount.address).toBe(ANVIL_ACCOUNTS[0]);
    expect(devnet.demoAccounts.map((a) => a.address)).toEqual(ANVIL_ACCOUNTS.slice(1));
    expect(devnet.payTo).toBe("0xBcd4042DE499D14e55001CcbB24a551F3b954096");
    expect(ANVIL_ACCOUNTS).not.toContain(devnet.payTo);
  });

  it("gives each of accounts 1..9, the demo merchant's 21, the paid checker's 22 and the demo traffic's 25..27 1,000 USDC and nobody else any", async () => {
    const balance = (address: `0x${string}`) =>
      devnet.publicClient.readContract({
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "balanceOf",
        args: [address],
      });
    for (const { address } of devnet.demoAccounts) expect(await balance(address)).toBe(1_000_000_000n);
    expect(devnet.demoMerchant.address).toBe(anvilAccount(21).address);
    expect(await balance(devnet.demoMerchant.address)).toBe(1_000_000_000n);
    expect(devnet.canary.address).toBe(anvilAccount(22).address);
    expect(await balance(devnet.canary.address)).toBe(1_000_000_000n);
    expect(devnet.traffic.map((w) => w.address)).toEqual([25, 26, 27].map((i) => anvilAccount(i).address));
    for (const { address } of devnet.traffic) expect(await balance(address)).toBe(1_000_000_000n);
    expect(DEMO_USDC_BALANCE).toBe(1_000_000_000n);
    expect(await balance(devnet.payTo)).toBe(0n);
    expect(await balance(devnet.facilitatorAccount.address)).toBe(0n);
    expect(await devnet.publicClient.readContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "totalSupply" })).toBe(14n * 1_000_000_000n);
  });

  it("puts TestUSDC at the canonical Base Sepolia USDC address", async () => {
    expect(devnet.usdcAddress).toBe(getAddress("0x036CbD53842c5426634e7929541eC2318f3dCF7e"));
    expect(await devnet.publicClient.getCode({ address: devnet.usdcAddress })).toBe(contractArtifacts.contracts.TestUSDC.deployedBytecode);
    const read = (functionName: "name" | "version") => devnet.publicClient.readContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName });
    expect(await read("name")).toBe("USDC");
    expect(await read("version")).toBe("2");
  });

  it("answers Multicall3 calls at the canonical address", async () => {
    expect(devnet.multicall3Address).toBe("0xcA11bde05977b3631167028862bE2a173976CA11");
    const [first, second] = devnet.demoAccounts;
    if (!first || !second) throw new Error("missing demo accounts");

    // viem's multicall goes through aggregate3.
    const results = await devnet.publicClient.multicall({
      contracts: [
        { address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "balanceOf", args: [first.address] },
        { address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "symbol" },
        { address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "mint", args: [second.address, 1n] },
      ],
    });
    expect(results[0]).toEqual({ status: "success", result: 1_000_000_000n });
    expect(results[1]).toEqual({ status: "success", result: "USDC" });
    expect(results[2]?.status).toBe("failure");

    // The x402 facilitator's diagnosis path: tryAggregate(false, ...) reports failures in place.
    const tryAggregateAbi = contractArtifacts.contracts.Multicall3Compatible.abi;
    const calls = [
      { target: devnet.usdcAddress, callData: encodeFunctionData({ abi: testUsdcAbi, functionName: "name" }) },
      {
        target: devnet.usdcAddress,
        callData: encodeFunctionData({ abi: testUsdcAbi, functionName: "mint", args: [second.address, 1n] }),
      },
    ];
    const tried = (await devnet.publicClient.readContract({
      address: devnet.multicall3Address,
      abi: tryAggregateAbi,
      functionName: "tryAggregate",
      args: [false, calls],
    })) as { success: boolean; returnData: `0x${string}` }[];
    expect(tried.map((r) => r.success)).toEqual([true, false]);
    await expect(
      devnet.publicClient.readContract({
        address: devnet.multicall3Address,
        abi: tryAggregateAbi,
        functionName: "tryAggregate",
        args: [true, calls],
      }),
    ).rejects.toThrow(/Multicall3: call failed/);

    const timestamp = await devnet.publicClient.readContract({
      address: devnet.multicall3Address,
      abi: multicall3Abi,
      functionName: "getCurrentBlockTimestamp",
    });
    expect(Number(timestamp)).toBeGreaterThan(0);
  });
});

describe("Devnet.stop", () => {
  it("kills anvil and its watchdog, and can be called twice", async () => {
    const own = await startTestDevnet();
    const { anvil, watchdog } = own.pids;
    expect(isProcessRunning(anvil)).toBe(true);
    expect(isProcessRunning(watchdog)).toBe(true);

    await own.stop();
    await own.stop();
    expect(await waitFor(() => !isProcessRunning(anvil) && !isProcessRunning(watchdog), 5_000)).toBe(true);
    await expect(own.publicClient.request({ method: "eth_blockNumber" })).rejects.toThrow();
  });
});
