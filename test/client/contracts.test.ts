import { describe, expect, it } from "vitest";
import { routeContracts } from "../../src/contracts/index.js";
import * as wire from "../../src/contracts/watch/ip-literal.js";
import * as guard from "../../src/lib/ssrf-guard.js";
import { productRoutes } from "../../src/http/routes/index.js";
import { runtimeImports, serverCodeIn, SERVER_PACKAGES } from "../helpers/import-graph.js";

const camel = (id: string) => id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

describe("route contracts", () => {
  it("are the server's product routes, in order, field for field", () => {
    const entries = Object.entries(routeContracts);
    expect(entries.map(([, c]) => c.id)).toEqual(productRoutes.map((r) => r.id));
    productRoutes.forEach((route, i) => {
      const [name, contract] = entries[i]!;
      expect(name).toBe(camel(route.id));
      for (const [field, value] of Object.entries(contract)) expect(route[field as keyof typeof route], `${route.id}.${field}`).toBe(value);
    });
  });

  it("load no server code", () => {
    const { files, packages } = runtimeImports("src/contracts/index.ts");
    expect(serverCodeIn(files)).toEqual([]);
    expect([...packages].filter((p) => SERVER_PACKAGES.includes(p))).toEqual([]);
    expect(files.has("src/contracts/preflight/schemas.ts")).toBe(true);
    // The same walk over the routes themselves finds the registry and their services.
    const server = serverCodeIn(runtimeImports("src/http/routes/index.ts").files);
    expect(server).toContain("src/http/registry.ts");
    expect(server.filter((f) => f.startsWith("src/services/")).length).toBeGreaterThan(5);
  });

  it("are all the client and the MCP server load of the service", () => {
    for (const entry of ["src/client/index.ts", "src/mcp/main.ts"]) {
      const { files, packages } = runtimeImports(entry);
      expect(serverCodeIn(files), entry).toEqual([]);
      expect([...packages].filter((p) => SERVER_PACKAGES.includes(p)), entry).toEqual([]);
      expect(files.has("src/contracts/index.ts"), entry).toBe(true);
    }
  });
});

// The request schema's literal check (contracts) and the connect-time guard (lib) keep one rule
// in two files, since lib may not import contracts: here they must agree everywhere.
const named = [
  "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255",
  "224.0.0.1", "198.18.0.1", "192.0.2.1", "203.0.113.9", "240.0.0.1", "192.0.0.8", "192.88.99.1", "192.175.48.1", "192.52.193.1",
  "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "::1", "[::1]", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1",
  "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:0:127.0.0.1", "64:ff9b::7f00:1", "64:ff9b:1::808:808", "2002:7f00:1::",
  "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:2::1", "2001:db8::1", "2001:10::1", "2620:4f:8000::1", "100::1", "fec0::1",
  "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "[2001:4860:4860::8888]", "::ffff:8.8.8.8", "64:ff9b::808:808",
  "2002:808:808::1", "localhost", "example.com", "", "1.2.3.4.5", "[::1", "::ffff:1.2.3",
];

/** Deterministic sweep: every first octet with spread-out tails, and IPv6 around the special prefixes. */
function sweep(): string[] {
  const out: string[] = [];
  for (let a = 0; a < 256; a++) for (const b of [0, 1, 16, 31, 32, 51, 64, 88, 100, 127, 128, 168, 175, 196, 254, 255]) out.push(`${a}.${b}.${(a * 7) % 256}.${(b * 13) % 256}`);
  for (const head of ["0", "64", "100", "2000", "2001", "2002", "2400", "2620", "3fff", "4000", "fc00", "fe80", "fec0", "ff00"])
    for (const second of ["0", "2", "3", "4", "10", "20", "30", "db8", "ff9b", "4f"]) out.push(`${head}:${second}::1`, `${head}:${second}:1::a00:1`);
  return out;
}

describe("the webhook literal rule in contracts", () => {
  it("is the SSRF guard's rule for every address", () => {
    const differ = [...named, ...sweep()].filter((ip) => wire.isPublicAddress(ip) !== guard.isPublicAddress(ip) || wire.isIpLiteral(ip) !== guard.isIpLiteral(ip));
    expect(differ).toEqual([]);
  });
});
