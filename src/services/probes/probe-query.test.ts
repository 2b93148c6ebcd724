import { describe, expect, it } from "vitest";
import { declaredQuery, MAX_EXAMPLE_QUERY_BYTES, withQuery } from "./probe-query.js";

describe("declaredQuery", () => {
  it("encodes a Bazaar queryParams example as a client's parameter object", () => {
    expect(declaredQuery({ type: "http", method: "GET", queryParams: { city: "San Francisco", days: 3, metric: true } })).toBe(
      "city=San+Francisco&days=3&metric=true",
    );
    expect(declaredQuery({ query: { q: "a&b=c" } })).toBe("q=a%26b%3Dc");
    expect(declaredQuery({ queryParams: { tag: ["x", "y"] } })).toBe("tag=x&tag=y");
  });

  it("leaves out field descriptions, nulls and nested objects: they are no example", () => {
    expect(declaredQuery({ queryParams: { city: { type: "string", required: true }, units: "metric", x: null } })).toBe("units=metric");
    expect(declaredQuery({ queryParams: { city: { type: "string" } } })).toBeNull();
  });

  it("is null without a declaration, or over the cap", () => {
    expect(declaredQuery(null)).toBeNull();
    expect(declaredQuery({ method: "GET" })).toBeNull();
    expect(declaredQuery({ queryParams: ["city"] })).toBeNull();
    expect(declaredQuery({ queryParams: { q: "x".repeat(MAX_EXAMPLE_QUERY_BYTES) } })).toBeNull();
  });
});

describe("withQuery", () => {
  it("appends the declared parameters the listed address does not name", () => {
    expect(withQuery("https://api.example.com/weather", "city=Kiel&days=3")).toBe("https://api.example.com/weather?city=Kiel&days=3");
    expect(withQuery("https://api.example.com/weather?days=7", "city=Kiel&days=3")).toBe("https://api.example.com/weather?days=7&city=Kiel");
  });

  it("keeps the listed URL as it is when there is nothing to add", () => {
    expect(withQuery("https://api.example.com/weather?days=7", null)).toBe("https://api.example.com/weather?days=7");
    expect(withQuery("https://api.example.com/weather?days=7", "days=3")).toBe("https://api.example.com/weather?days=7");
    expect(withQuery("not a url", "a=1")).toBe("not a url");
  });
});
