/** The endpoint a URL is checked as: without query and fragment; null (unchecked) for the Lookout service itself and non-http(s) URLs. */
export function defaultTarget(lookoutBase: string): (url: URL) => string | null {
  return (url) => {
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const address = `${url.origin}${url.pathname}`;
    if (address === lookoutBase || address.startsWith(`${lookoutBase}/`)) return null;
    return address;
  };
}
