/** Where a certificate's public page and badge live; the discovery mount serves both. */
export const certificatePagePath = (certId: string) => `/verified/${encodeURIComponent(certId)}`;
export const certificateBadgePath = (certId: string) => `${certificatePagePath(certId)}/badge.svg`;
export const JWKS_PATH = "/.well-known/jwks.json";

export function certificateLinks(base: string, certId: string) {
  return { pageUrl: `${base}${certificatePagePath(certId)}`, badgeUrl: `${base}${certificateBadgePath(certId)}`, jwksUrl: `${base}${JWKS_PATH}` };
}
