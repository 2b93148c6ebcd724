import { describe, expect, it } from "vitest";
import { checkInput } from "./input-variant.js";

const schema = { properties: { input: { properties: { queryParams: { properties: { city: { type: "string", enum: ["Paris", "Oslo"] } } } } } } };

describe("checkInput", () => {
  it("sends the declared example on even checks and a variant from the schema's enum on odd ones", () => {
    const declared = { type: "http", method: "GET", queryParams: { city: "Paris" } };
    expect(checkInput(declared, schema, 0)).toEqual({ kind: "declared", query: "city=Paris", body: null });
    expect(checkInput(declared, schema, 1)).toEqual({ kind: "variant", query: "city=Oslo", body: null });
  });

  it("varies only what the schema declares other values for; without any, sends the example every time (no canned judgment)", () => {
    const declared = { type: "http", method: "POST", bodyType: "json", body: { n: 2, on: true, q: "x" } };
    expect(checkInput(declared, undefined, 1)).toEqual({ kind: "declared", query: null, body: '{"n":2,"on":true,"q":"x"}' });
    const bodySchema = { properties: { input: { properties: { body: { properties: { q: { type: "string", examples: ["x", "y"] } } } } } } };
    expect(checkInput(declared, bodySchema, 1)).toEqual({ kind: "variant", query: null, body: '{"n":2,"on":true,"q":"y"}' });
  });

  it("has nothing to vary when the listing declares no input", () => {
    expect(checkInput({ type: "http", method: "GET" }, undefined, 1)).toEqual({ kind: "none", query: null, body: null });
    expect(checkInput(null, undefined, 0).kind).toBe("none");
  });
});
