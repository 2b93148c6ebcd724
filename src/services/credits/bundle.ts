/** What one POST /api/v1/credits buys (/spec#credits): 1000 preflight calls, valid 90 days. */
export const CREDIT_BUNDLE = { calls: 1000, validDays: 90 } as const;

/** The usage hint, on the issued bundle and on its status alike (/spec#credits, /spec#credits-status). */
export const creditUsage = (creditId: string, publicBaseUrl: string) => ({
  header: `X-Credit-Id: ${creditId}`,
  statusUrl: `${publicBaseUrl}/api/v1/credits/${creditId}`,
});
