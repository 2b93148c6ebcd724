import { describe, expect, it } from "vitest";
import { routeContracts } from "../../src/http/contracts/index.js";
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
    const { files, packages } = runtimeImports("src/http/contracts/index.ts");
    expect(serverCodeIn(files)).toEqual([]);
    expect([...packages].filter((p) => SERVER_PACKAGES.includes(p))).toEqual([]);
    expect(files.has("src/http/routes/preflight/schemas.ts")).toBe(true);
    // The same walk over the routes themselves finds their services and the database.
    const server = runtimeImports("src/http/routes/index.ts");
    expect(serverCodeIn(server.files)).toContain("src/services/alternatives/alternatives.ts");
    expect(server.packages).toContain("kysely");
  });
});
