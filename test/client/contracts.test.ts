import { describe, expect, it } from "vitest";
import { routeContracts } from "@x402-lookout/contracts";
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
    const { files, packages } = runtimeImports("packages/contracts/src/index.ts");
    expect([...files].filter((f) => !f.startsWith("packages/contracts/src/"))).toEqual([]);
    expect([...packages]).toEqual(["zod"]);
    expect(files.has("packages/contracts/src/preflight/schemas.ts")).toBe(true);
    // The same walk over the routes themselves finds the registry and their services.
    const server = serverCodeIn(runtimeImports("src/http/routes/index.ts").files);
    expect(server).toContain("src/http/registry.ts");
    expect(server.filter((f) => f.startsWith("src/services/")).length).toBeGreaterThan(5);
  });

  it("are all the client and the MCP server load of the service", () => {
    for (const entry of ["packages/client/src/index.ts", "packages/mcp/src/main.ts"]) {
      const { files, packages } = runtimeImports(entry);
      expect(
        [...files].filter((f) => !f.startsWith("packages/")),
        entry,
      ).toEqual([]);
      expect(
        [...packages].filter((p) => SERVER_PACKAGES.includes(p)),
        entry,
      ).toEqual([]);
      expect(files.has("packages/contracts/src/index.ts"), entry).toBe(true);
    }
  });

  it("leave the client only its declared dependencies (@x402/evm is an optional peer, for a signer)", () => {
    const { files, packages } = runtimeImports("packages/client/src/index.ts");
    expect([...files].filter((f) => !/^packages\/(client|contracts)\/src\//.test(f))).toEqual([]);
    expect([...packages].sort()).toEqual(["@x402/core", "@x402/evm", "@x402/fetch", "jose", "zod"]);
  });
});
