import { authorizationTypes } from "@x402/evm";
import { createWalletClient, domainSeparator, http, parseSignature, serializeSignature, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/chain/devnet.js";
import { testUsdcAbi } from "../../src/chain/token-abi.js";
import { startTestDevnet } from "./helpers.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

let devnet: Devnet;
let alice: PrivateKeyAccount;
let bob: PrivateKeyAccount;
let carol: PrivateKeyAccount;

beforeAll(async () => {
  devnet = await startTestDevnet();
  const [a, b, c] = devnet.demoAccounts.slice(1, 4).map((account) => privateKeyToAccount(account.privateKey));
  if (!a || !b || !c) throw new Error("devnet has too few demo accounts");
  [alice, bob, carol] = [a, b, c];
});

afterAll(async () => {
  await devnet?.stop();
});

const randomNonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));
const domain = () => ({ name: "USDC", version: "2", chainId: devnet.chainId, verifyingContract: devnet.usdcAddress }) as const;

function balanceOf(address: Address): Promise<bigint> {
  return devnet.publicClient.readContract({
    address: devnet.usdcAddress,
    abi: testUsdcAbi,
    functionName: "balanceOf",
    args: [address],
  });
}

function walletOf(account: PrivateKeyAccount) {
  return createWalletClient({ account, chain: devnet.chain, transport: http(devnet.rpcUrl) });
}

async function mined(hash: Hex): Promise<void> {
  const receipt = await devnet.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

function authorization(from: PrivateKeyAccount, to: Address, value: bigint) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  return { from: from.address, to, value, validAfter: 0n, validBefore: now + 300n, nonce: randomNonce() };
}

describe("TestUSDC metadata", () => {
  it("reads as USDC with 6 decimals and EIP-712 version 2", async () => {
    const read = <F extends "name" | "symbol" | "version" | "decimals">(functionName: F) =>
      devnet.publicClient.readContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName });
    expect(await read("name")).toBe("USDC");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("version")).toBe("2");
    expect(await read("decimals")).toBe(6);
  });

  it("derives its domain separator from the chain id and the address it was placed at", async () => {
    const separator = await devnet.publicClient.readContract({
      address: devnet.usdcAddress,
      abi: testUsdcAbi,
      functionName: "DOMAIN_SEPARATOR",
    });
    expect(separator).toBe(domainSeparator({ domain: domain() }));

    const [fields, name, version, chainId, verifyingContract, salt, extensions] = await devnet.publicClient.readContract({
      address: devnet.usdcAddress,
      abi: testUsdcAbi,
      functionName: "eip712Domain",
    });
    expect({ fields, name, version, chainId, verifyingContract, salt, extensions }).toEqual({
      fields: "0x0f",
      name: "USDC",
      version: "2",
      chainId: 84532n,
      verifyingContract: devnet.usdcAddress,
      salt: `0x${"0".repeat(64)}`,
      extensions: [],
    });
  });
});

describe("TestUSDC ERC-20", () => {
  it("transfers, approves and transfers from an allowance", async () => {
    const bobBefore = await balanceOf(bob.address);
    await mined(
      await walletOf(alice).writeContract({
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "approve",
        args: [carol.address, 500n],
      }),
    );
    await mined(
      await walletOf(carol).writeContract({
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "transferFrom",
        args: [alice.address, bob.address, 300n],
      }),
    );
    expect(await balanceOf(bob.address)).toBe(bobBefore + 300n);
    expect(
      await devnet.publicClient.readContract({
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "allowance",
        args: [alice.address, carol.address],
      }),
    ).toBe(200n);
    await expect(
      devnet.publicClient.simulateContract({
        account: carol,
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "transferFrom",
        args: [alice.address, bob.address, 201n],
      }),
    ).rejects.toThrow(/exceeds allowance/);
  });

  it("lets only the minter mint", async () => {
    await expect(
      devnet.publicClient.simulateContract({
        account: alice,
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "mint",
        args: [alice.address, 1n],
      }),
    ).rejects.toThrow(/caller is not the minter/);
    expect(await devnet.publicClient.readContract({ address: devnet.usdcAddress, abi: testUsdcAbi, functionName: "MINTER" })).toBe(
      devnet.facilitatorAccount.address,
    );
  });
});

describe("TestUSDC EIP-3009", () => {
  it("accepts the v,r,s overload and the bytes overload, and marks the nonce used", async () => {
    const bobBefore = await balanceOf(bob.address);
    for (const overload of ["vrs", "bytes"] as const) {
      const auth = authorization(alice, bob.address, 10n);
      const signature = await alice.signTypedData({
        domain: domain(),
        types: authorizationTypes,
        primaryType: "TransferWithAuthorization",
        message: auth,
      });
      const base = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce] as const;
      const { r, s, yParity } = parseSignature(signature);
      const hash =
        overload === "vrs"
          ? await walletOf(carol).writeContract({
              address: devnet.usdcAddress,
              abi: testUsdcAbi,
              functionName: "transferWithAuthorization",
              args: [...base, 27 + yParity, r, s],
            })
          : await walletOf(carol).writeContract({
              address: devnet.usdcAddress,
              abi: testUsdcAbi,
              functionName: "transferWithAuthorization",
              args: [...base, signature],
            });
      await mined(hash);
      expect(
        await devnet.publicClient.readContract({
          address: devnet.usdcAddress,
          abi: testUsdcAbi,
          functionName: "authorizationState",
          args: [alice.address, auth.nonce],
        }),
      ).toBe(true);
    }
    expect(await balanceOf(bob.address)).toBe(bobBefore + 20n);
  });

  it("rejects a wrong signer and a malleable (high-s) signature", async () => {
    const auth = authorization(alice, bob.address, 10n);
    const args = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce] as const;
    const byBob = await bob.signTypedData({
      domain: domain(),
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: auth,
    });
    const byAlice = parseSignature(
      await alice.signTypedData({ domain: domain(), types: authorizationTypes, primaryType: "TransferWithAuthorization", message: auth }),
    );
    // The same point with s mirrored: valid for ecrecover, refused by EIP-2 rules.
    const malleable = serializeSignature({
      r: byAlice.r,
      s: toHex(SECP256K1_N - BigInt(byAlice.s), { size: 32 }),
      yParity: byAlice.yParity === 0 ? 1 : 0,
    });
    for (const signature of [byBob, malleable]) {
      await expect(
        devnet.publicClient.simulateContract({
          account: carol,
          address: devnet.usdcAddress,
          abi: testUsdcAbi,
          functionName: "transferWithAuthorization",
          args: [...args, signature],
        }),
      ).rejects.toThrow(/invalid signature/);
    }
  });

  it("refuses an authorization that is not yet valid", async () => {
    const auth = { ...authorization(alice, bob.address, 10n), validAfter: BigInt(Math.floor(Date.now() / 1000)) + 3600n };
    auth.validBefore = auth.validAfter + 300n;
    const signature = await alice.signTypedData({
      domain: domain(),
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: auth,
    });
    await expect(
      devnet.publicClient.simulateContract({
        account: carol,
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature],
      }),
    ).rejects.toThrow(/authorization is not yet valid/);
  });

  it("lets only the payee submit receiveWithAuthorization", async () => {
    const auth = authorization(alice, bob.address, 25n);
    const signature = await alice.signTypedData({
      domain: domain(),
      types: {
        ReceiveWithAuthorization: authorizationTypes.TransferWithAuthorization,
      },
      primaryType: "ReceiveWithAuthorization",
      message: auth,
    });
    const args = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature] as const;
    await expect(
      devnet.publicClient.simulateContract({
        account: carol,
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "receiveWithAuthorization",
        args,
      }),
    ).rejects.toThrow(/caller must be the payee/);

    const bobBefore = await balanceOf(bob.address);
    await mined(
      await walletOf(bob).writeContract({
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "receiveWithAuthorization",
        args,
      }),
    );
    expect(await balanceOf(bob.address)).toBe(bobBefore + 25n);
  });

  it("cancels an unused authorization so it can no longer be used", async () => {
    const auth = authorization(alice, bob.address, 10n);
    const cancel = await alice.signTypedData({
      domain: domain(),
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: alice.address, nonce: auth.nonce },
    });
    await mined(
      await walletOf(carol).writeContract({
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "cancelAuthorization",
        args: [alice.address, auth.nonce, cancel],
      }),
    );

    const signature = await alice.signTypedData({
      domain: domain(),
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: auth,
    });
    await expect(
      devnet.publicClient.simulateContract({
        account: carol,
        address: devnet.usdcAddress,
        abi: testUsdcAbi,
        functionName: "transferWithAuthorization",
        args: [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, signature],
      }),
    ).rejects.toThrow(/authorization is used or canceled/);
  });
});
