import { createServer as createNetServer, type AddressInfo } from "node:net";
import axios from "axios";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeRequest } from "../../src/services/probes/endpoint-probe.js";
import { declaredBody, MAX_EXAMPLE_BODY_BYTES, probeBody } from "../../src/services/probes/probe-body.js";
import { DEFAULT_PROFILE, PROBE_PROFILES, profileFor, profileHeaders, type ProbeProfile } from "../../src/services/probes/profiles.js";
import { testHttpClient } from "./helpers.js";

const start = Date.parse("2026-11-20T12:00:00Z");

/** A listing's profiles over `n` probes 10 minutes apart, each knowing the one before. */
function series(listingId: number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(profileFor(listingId, new Date(start + i * 600_000), out.at(-1) ?? null));
  return out;
}

describe("probe profiles", () => {
  it("alternate the default with another, starting with the default, so three probes show two profiles", () => {
    for (let id = 1; id <= 200; id++) {
      const s = series(id, 7);
      expect(s.filter((_, i) => i % 2 === 0).every((p) => p === DEFAULT_PROFILE)).toBe(true);
      expect(s.filter((_, i) => i % 2 === 1).some((p) => p === DEFAULT_PROFILE)).toBe(false);
    }
  });

  it("vary the other profile by listing and instant, and repeat it for the same ones", () => {
    const others = new Set(Array.from({ length: 200 }, (_, id) => series(id, 2)[1]));
    expect(others).toEqual(new Set(["axios", "httpx", "browser"]));
    expect(series(7, 9)).toEqual(series(7, 9));
  });

  it("answer the default after any profile that is not it, including one no longer in the table", () => {
    expect(profileFor(1, new Date(start), "browser")).toBe(DEFAULT_PROFILE);
    expect(profileFor(1, new Date(start), "retired-profile")).toBe(DEFAULT_PROFILE);
  });
});

/** A raw socket server: each request's header lines exactly as they came, and its body. */
async function rawServer() {
  const got: Array<{ names: string[]; values: string[]; body: string }> = [];
  const server = createNetServer((socket) => {
    let buf = "";
    socket.on("data", (d: Buffer) => {
      buf += d.toString("latin1");
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) return;
      const lines = buf.slice(0, end).split("\r\n").slice(1);
      const length = Number(lines.find((l) => /^content-length:/i.test(l))?.split(":")[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      got.push({ names: lines.map((l) => l.slice(0, l.indexOf(":"))), values: lines.map((l) => l.slice(l.indexOf(":") + 1).trim()), body: buf.slice(end + 4) });
      socket.end("HTTP/1.1 402 Payment Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  return { url, got, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What a client chose to send, without the framing undici (and node:http) write themselves. */
const FRAMING = new Set(["host", "connection", "content-length"]);
const chosen = (r: { names: string[]; values: string[] }) =>
  r.names.flatMap((n, i) => (FRAMING.has(n.toLowerCase()) ? [] : [[n, r.values[i]!] as [string, string]]));

describe("header order and body, on the wire", () => {
  let raw: Awaited<ReturnType<typeof rawServer>>;
  let client: ReturnType<typeof testHttpClient>;
  beforeAll(async () => {
    raw = await rawServer();
    client = testHttpClient();
  });
  afterAll(async () => {
    await client.close();
    await raw.close();
  });

  it("the fetch and axios profiles are what Node's fetch and axios send, in order and spelling (measured here)", async () => {
    await fetch(raw.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(chosen(raw.got.at(-1)!)).toEqual(profileHeaders("fetch", "application/json"));
    await axios.post(raw.url, {}, { validateStatus: () => true });
    expect(chosen(raw.got.at(-1)!)).toEqual(profileHeaders("axios", "application/json"));
    await axios.post(raw.url, undefined, { validateStatus: () => true });
    expect(chosen(raw.got.at(-1)!)).toEqual(profileHeaders("axios", probeBody("axios", null).contentType));
    await fetch(raw.url);
    expect(chosen(raw.got.at(-1)!)).toEqual(profileHeaders("fetch"));
  });

  it("the prober's HTTP client sends each profile's headers in the order given, after undici's host and connection", async () => {
    for (const profile of Object.keys(PROBE_PROFILES) as ProbeProfile[]) {
      const job = { listingId: 1, url: raw.url, method: "POST", host: new URL(raw.url).host, network: null, asset: null, inputExample: '{"q":1}' };
      const req = probeRequest(job, profile);
      await client.http.request(req);
      const seen = raw.got.at(-1)!;
      expect(
        seen.names.slice(0, 2).map((n) => n.toLowerCase()),
        profile,
      ).toEqual(["host", "connection"]);
      expect(chosen(seen), profile).toEqual(req.headers);
      expect(seen.body, profile).toBe(req.body ?? "");
    }
  });
});

describe("what the profiles vary", () => {
  const all = Object.keys(PROBE_PROFILES) as ProbeProfile[];
  const others = all.filter((p) => p !== DEFAULT_PROFILE);

  it("every header a profile has is sent, and each profile has its own order", () => {
    for (const p of all)
      expect(new Set(profileHeaders(p, "application/json").map(([n]) => n.toLowerCase()))).toEqual(
        new Set([...Object.keys(PROBE_PROFILES[p]), "content-type"]),
      );
    const orders = all.map((p) =>
      profileHeaders(p, "application/json")
        .map(([n]) => n.toLowerCase())
        .join(","),
    );
    expect(new Set(orders).size).toBe(all.length);
    // Where content-type goes: first in fetch (the caller's headers lead), last in httpx (h11 appends it).
    const at = (p: ProbeProfile) => profileHeaders(p, "application/json").findIndex(([n]) => n.toLowerCase() === "content-type");
    expect(at("fetch")).toBe(0);
    expect(at("httpx")).toBe(profileHeaders("httpx", "application/json").length - 1);
  });

  it("bodies: the default the declared example (else {}), httpx {}, axios and the browser none; every two profiles' requests differ", () => {
    for (const example of [null, "{}", '{"text":"hello","to":"de"}']) {
      const sent = all.map((p) => ({ p, body: probeBody(p, example).text, order: profileHeaders(p, probeBody(p, example).contentType).map(([n]) => n) }));
      expect(sent.map((s) => s.body)).toEqual([example ?? "{}", null, "{}", null]);
      expect(new Set(sent.map((s) => JSON.stringify([s.body, s.order]))).size).toBe(all.length);
      // A body that is not the default's reaches it from two of the three others whatever the example.
      expect(others.filter((p) => probeBody(p, example).text !== (example ?? "{}")).length).toBeGreaterThanOrEqual(2);
    }
  });

  it("read the declared example from a Bazaar input: JSON bodies only, within the cap", () => {
    expect(declaredBody({ type: "http", method: "POST", bodyType: "json", body: { text: "hello", to: "de" } })).toBe('{"text":"hello","to":"de"}');
    expect(declaredBody({ type: "http", method: "POST", body: { q: 1 } })).toBe('{"q":1}');
    expect(declaredBody({ type: "http", method: "GET", queryParams: { q: "Hamburg" } })).toBeNull();
    expect(declaredBody({ type: "http", method: "POST", bodyType: "form-data", body: { a: "b" } })).toBeNull();
    expect(declaredBody({ method: "POST", bodyType: "json", body: { blob: "x".repeat(MAX_EXAMPLE_BODY_BYTES) } })).toBeNull();
    expect(declaredBody(null)).toBeNull();
    expect(declaredBody(["not", "an", "object"])).toBeNull();
  });
});
