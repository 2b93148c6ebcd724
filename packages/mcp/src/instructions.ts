/** What the server tells an agent its tools are for (the MCP `instructions` of initialize). */
export const INSTRUCTIONS = `x402 Lookout checks x402 payment endpoints before you pay them: payments are final, and catalogs hold decoys, dead and zombie services, cloaked or switched quotes.

Before paying an x402 URL, call preflight-trial (free; 10 calls per IP and 50 per target host per UTC day, then HTTP 429) or preflight (0.001 USDC) with {url}; add {method, paymentRequired} (the 402 you hold, body or PAYMENT-REQUIRED header) to have the exact quote checked too. The answer:
- ok: false when a critical code fires; reason_codes: every signal code that fired (e.g. dead, zombie, decoy_price_extreme, price_switch, pay_to_mismatch, cloaking); warnings: only the spec's codes among them, so decide on reason_codes.
- recommended_action: pay (go ahead); skip (do not pay: a wallet-drain signal); use_alternatives (call alternatives for healthy substitutes); investigate (warnings or an unknown URL: read forensics or ask a human before paying).
- risk_score 0..1; confidence 0..1 (below 0.4 the verdict is a hint only); signature: a JWS over the verdict, valid 5 minutes.
Use preflight-batch for up to 50 URLs at once.

Payments: each paid tool states its price and is paid with x402 from the configured wallet (LOOKOUT_PAYER_KEY; without it paid tools fail with status 402). A tool priced above the spend cap (LOOKOUT_MAX_PAYMENT_USDC, default 1) is refused unsent (error spend_cap). The credits tool buys 1000 preflight calls for 0.50 USDC (90 days); with its creditId in LOOKOUT_CREDIT_ID, preflight spends the bundle first. A failed call is a tool error whose JSON says status, error, payment_sent and payment_settled.

After paying a listed endpoint, report-outcome (free) tells Lookout what you got: delivered, undelivered, invalid_output or refused_after_payment, naming the settlement by tx (the transaction in the answer's PAYMENT-RESPONSE). It counts only when signed by the wallet that paid: this server signs reports you send without a signature with its own wallet (LOOKOUT_PAYER_KEY), so leave payer and signature out only when that wallet paid. A report seconds after payment may be refused with not_paid until Lookout has indexed the block: retry in a minute.`;
