/** What the client knows about the prepaid bundle it spends on preflight (X-Credit-Id). */
export interface CreditState {
  creditId: string;
  /** Calls left after the last call it paid; null until one was paid. */
  balance: number | null;
  expiresAt: Date | null;
  /** False once the bundle is known exhausted or expired: calls then pay per call. */
  usable: boolean;
}

/**
 * The service spends one call per answered preflight and, once the bundle is exhausted or
 * expired, falls through to the per-call x402 payment. The client follows the answers' headers
 * so that it stops presenting a bundle that can no longer pay.
 */
export class CreditBundle {
  private balance: number | null = null;
  private expiresAt: Date | null = null;
  private spent = false;

  constructor(
    readonly creditId: string,
    private readonly now: () => number = Date.now,
  ) {}

  get usable(): boolean {
    return !this.spent && (this.expiresAt === null || this.expiresAt.getTime() > this.now());
  }

  state(): CreditState {
    return { creditId: this.creditId, balance: this.balance, expiresAt: this.expiresAt, usable: this.usable };
  }

  /** Reads an answer to a call that presented the bundle; `refused` when it did not pay for it. */
  observe(res: Response, refused: boolean): void {
    const balance = res.headers.get("x-credit-balance");
    const expires = res.headers.get("x-credit-expires-at");
    if (balance !== null && Number.isInteger(Number(balance))) this.balance = Number(balance);
    if (expires !== null && !Number.isNaN(Date.parse(expires))) this.expiresAt = new Date(expires);
    if (refused || this.balance === 0) this.spent = true;
  }
}
