import { describe, expect, it } from "vitest";
import { isRouteTemplate, matchKey, pickListing, type MatchCandidate } from "./url-match.js";

const L = (url: string, method = "GET", is_active = true): MatchCandidate => ({ url, method, is_active });
const pick = (url: string, candidates: MatchCandidate[], method?: string) => {
  const m = pickListing({ url, method }, candidates);
  return m && { url: m.listing.url, method: m.listing.method, by: m.by };
};

describe("the URL matcher", () => {
  it("keys a URL by origin and path: case, default port, IDN, credentials, fragment, query and trailing slashes folded", () => {
    const key = "https://weather.example/v1/current";
    for (const spelling of [
      "https://weather.example/v1/current",
      "HTTPS://Weather.EXAMPLE:443/v1/current",
      "https://weather.example/v1/current/",
      "https://weather.example/v1/current?city=Lisbon#top",
      "https://user:pw@weather.example/v1/current//",
    ])
      expect(matchKey(spelling)).toBe(key);
    expect(matchKey("https://bücher.example/")).toBe("https://xn--bcher-kva.example/");
    expect(matchKey("http://weather.example:8080/")).toBe("http://weather.example:8080/");
    expect(matchKey("https://weather.example")).toBe("https://weather.example/");
    // The path's case is the server's to interpret; so are other schemes.
    expect(matchKey("https://weather.example/V1/current")).not.toBe(key);
    expect(matchKey("ftp://weather.example/a")).toBeUndefined();
    expect(matchKey("not a url")).toBeUndefined();
  });

  it("reaches a listing by the URL as agents send it, and says how", () => {
    const listing = L("https://weather.example/v1/current");
    expect(pick("https://weather.example/v1/current", [listing])?.by).toBe("exact");
    for (const asked of [
      "https://weather.example/v1/current?city=Lisbon",
      "https://WEATHER.example:443/v1/current/",
      "https://weather.example/v1/current/?units=metric",
    ])
      expect(pick(asked, [listing])).toEqual({ url: listing.url, method: "GET", by: "normalized" });
    expect(pick("https://weather.example/v1/forecast", [listing])).toBeUndefined();
    expect(pick("https://weather.example:8443/v1/current", [listing])).toBeUndefined();
    expect(pick("http://weather.example/v1/current", [listing])).toBeUndefined();
  });

  it("lets a listing that names a query or a trailing slash keep them", () => {
    const plain = L("https://llm.example/complete");
    const model = L("https://llm.example/complete?model=large");
    const slash = L("https://llm.example/complete/");
    expect(pick("https://llm.example/complete?model=large&t=1", [plain, model])?.url).toBe(model.url);
    expect(pick("https://llm.example/complete?model=small", [plain, model])?.url).toBe(plain.url);
    expect(pick("https://llm.example/complete?model=small", [model])).toBeUndefined();
    expect(pick("https://llm.example/complete/", [plain, slash])).toEqual({ url: slash.url, method: "GET", by: "exact" });
    expect(pick("https://llm.example/complete", [slash, plain])).toEqual({ url: plain.url, method: "GET", by: "exact" });
    expect(pick("https://llm.example/complete", [slash])?.by).toBe("normalized");
  });

  it("prefers the active listing, then the request's method; a listing of another method is still the address's", () => {
    const get = L("https://x.example/a", "GET");
    const post = L("https://x.example/a", "POST");
    const gone = L("https://x.example/a", "POST", false);
    expect(pick("https://x.example/a", [get, post], "post")?.method).toBe("POST");
    expect(pick("https://x.example/a", [post, get], "GET")).toEqual({ url: get.url, method: "GET", by: "exact" });
    expect(pick("https://x.example/a", [post])).toEqual({ url: post.url, method: "POST", by: "exact" });
    expect(pick("https://x.example/a", [post], "GET")?.by).toBe("normalized");
    expect(pick("https://x.example/a", [gone, get], "POST")?.method).toBe("GET");
    expect(pick("https://x.example/a", [gone])?.method).toBe("POST");
  });

  it("fills Bazaar route templates segment by segment, after any concrete address", () => {
    const template = L("https://geo.example/weather/:country/:city");
    const bracket = L("https://geo.example/users/[id]");
    expect(isRouteTemplate(template.url) && isRouteTemplate(bracket.url)).toBe(true);
    expect(isRouteTemplate("http://[::1]:8080/a/b")).toBe(false);
    expect(isRouteTemplate("https://geo.example/a:b/c")).toBe(false);
    expect(pick("https://geo.example/weather/pt/Lisbon?units=c", [template])?.by).toBe("route_template");
    expect(pick("https://geo.example/users/42/", [bracket])?.by).toBe("route_template");
    expect(pick("https://geo.example/weather/pt", [template])).toBeUndefined();
    expect(pick("https://geo.example/weather/pt/Lisbon/today", [template])).toBeUndefined();
    expect(pick("https://geo.example/weather//Lisbon", [template])).toBeUndefined();
    expect(pick("https://other.example/weather/pt/Lisbon", [template])).toBeUndefined();
    const concrete = L("https://geo.example/weather/pt/Lisbon");
    expect(pick("https://geo.example/weather/pt/Lisbon", [template, concrete])).toEqual({ url: concrete.url, method: "GET", by: "exact" });
  });
});
