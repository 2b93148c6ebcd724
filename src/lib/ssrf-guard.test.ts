import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedDispatcher, isPublicAddress, SsrfBlockedError, type LookupFunction } from "./ssrf-guard.js";
import { classifyNetworkError } from "../services/probes/network-error.js";
import { startServer, type TestServer } from "../../test/probes/helpers.js";

describe("isPublicAddress", () => {
  const refused = [
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "0.0.0.0",
    "0.1.2.3",
    "255.255.255.255",
    "224.0.0.1",
    "239.255.255.250",
    "198.18.0.1",
    "198.19.255.255",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "240.0.0.1",
    "192.0.0.8",
    // other notations of loopback
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "0x7f.0.0.1",
    "127.1",
    "::1",
    "[::1]",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:0:127.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::808:808",
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",
    "::7f00:1",
    "2001:db8::1",
    "100::1",
    "fec0::1",
    // not addresses at all
    "localhost",
    "example.com",
    "",
    "1.2.3.4.5",
  ];
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "[2001:4860:4860::8888]",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ];
  it.each(refused)("refuses %s", (ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(allowed)("allows %s", (ip) => expect(isPublicAddress(ip)).toBe(true));
});

describe("createGuardedDispatcher", () => {
  let server: TestServer;
  let hits = 0;
  let port: string;
  beforeAll(async () => {
    server = await startServer((_req, res) => {
      hits++;
      res.writeHead(200).end("ok");
    });
    port = new URL(server.url).port;
  });
  afterAll(() => server.close());

  const toLoopback: LookupFunction = (_host, _opts, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]);
  const mixed: LookupFunction = (_host, _opts, cb) =>
    cb(null, [
      { address: "8.8.8.8", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ]);

  async function attempt(url: string, opts: { allowPrivate: boolean; lookup?: LookupFunction }) {
    const dispatcher = createGuardedDispatcher({ connectTimeoutMs: 2_000, ...opts });
    try {
      const res = await request(url, { dispatcher });
      await res.body.text();
      return { status: res.statusCode };
    } catch (err) {
      return { err };
    } finally {
      await dispatcher.close();
    }
  }

  it("refuses a hostname that resolves to loopback, at connect time", async () => {
    const before = hits;
    for (const [host, lookup] of [
      ["localhost", undefined],
      ["rebind.test", toLoopback],
      ["mixed.test", mixed],
    ] as const) {
      const r = await attempt(`http://${host}:${port}/`, { allowPrivate: false, lookup });
      expect(r.err, host).toBeInstanceOf(SsrfBlockedError);
      expect(classifyNetworkError(r.err, false)).toBe("ssrf_blocked");
    }
    expect(hits).toBe(before);
  });

  it("refuses literal loopback addresses in every notation", async () => {
    const before = hits;
    for (const host of ["127.0.0.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]", "[::1]"]) {
      const r = await attempt(`http://${host}:${port}/`, { allowPrivate: false });
      expect(r.err, host).toBeInstanceOf(SsrfBlockedError);
      expect((r.err as SsrfBlockedError).kind).toBe("ssrf_blocked");
    }
    expect(hits).toBe(before);
  });

  it("connects to private targets when allowed", async () => {
    expect(await attempt(`http://localhost:${port}/`, { allowPrivate: true })).toEqual({ status: 200 });
    expect(await attempt(`http://rebind.test:${port}/`, { allowPrivate: true, lookup: toLoopback })).toEqual({ status: 200 });
  });
});
