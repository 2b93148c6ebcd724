/**
 * The name every product, page and dataset credits. It lives outside src/http so services
 * (the dataset's README and LICENSE) can name the service without importing the HTTP layer.
 */
export const SERVICE_NAME = "x402 Lookout";
