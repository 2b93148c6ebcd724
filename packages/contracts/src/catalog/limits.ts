/** What-new's list cap: the default and the largest a caller may ask for. */
export const WHATS_NEW_LIMIT = { default: 200, max: 500 } as const;
