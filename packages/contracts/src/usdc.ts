/** USDC has 6 decimals; x402 challenge amounts are integer strings of 10^-6 USDC. */
export const USDC_DECIMALS = 6;

export function usdcToAtomic(price: string): string {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(price);
  if (!m) throw new Error(`invalid USDC amount ${price}`);
  return (BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"))).toString();
}

export function atomicToUsdc(atomic: string | bigint): string {
  const n = BigInt(atomic);
  const whole = n / 1_000_000n;
  const frac = (n % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}
