const PAY_TO = "0x5b0e3b4d1c7e0a6f2d9c8b7a6e5f4d3c2b1a0f9e";
const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
// An illustration of the shape: a real signature is a compact JWS over the answer's claims.
const SIGNATURE = "eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIiwidHlwIjoibG9va291dC1zbmFwc2hvdCtqd3QifQ.eyJraW5kIjoic25hcHNob3QifQ.c2lnbmF0dXJl";

const HEALTHY = {
  url: "https://weather.example/v1/forecast",
  method: "GET",
  ok: true,
  action: "pay" as const,
  warnings: [],
  pay_to: PAY_TO,
  asset: USDC,
  network: "eip155:84532",
  amount: "2000",
  price_usdc: "0.002",
  seq: 4180,
};

const DEAD = {
  url: "https://weather.example/v2/broken",
  method: "GET",
  ok: false,
  action: "use_alternatives" as const,
  warnings: ["dead" as const, "zombie" as const],
  pay_to: PAY_TO,
  asset: USDC,
  network: "eip155:84532",
  amount: "2000",
  price_usdc: "0.002",
  seq: 4213,
};

export const VERDICT_SNAPSHOT_EXAMPLE = {
  seq: 4213,
  generated_at: "2026-11-20T12:00:00.000Z",
  expires_at: "2026-11-20T12:15:00.000Z",
  count: 2,
  entries: [HEALTHY, DEAD],
  signature: SIGNATURE,
};

export const VERDICT_DELTAS_EXAMPLE = {
  since: 4213,
  seq: 4220,
  generated_at: "2026-11-20T12:01:00.000Z",
  expires_at: "2026-11-20T12:16:00.000Z",
  truncated: false,
  changed: [{ ...DEAD, ok: true, action: "pay" as const, warnings: [], seq: 4217 }],
  removed: [{ url: "https://premium.example/alpha", method: "POST", seq: 4220 }],
  signature: SIGNATURE,
};
