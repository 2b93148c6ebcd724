import type { AnyRouteContract } from "@x402-lookout/contracts";

/** The HTTP request of a route call: path parameters filled, `secret` as a bearer header, the rest as the JSON body. */
export function routeRequest(contract: AnyRouteContract, input: Record<string, unknown>): { path: string; init: RequestInit } {
  const fields = { ...input };
  const headers: Record<string, string> = { accept: "application/json" };
  if (contract.bearerSecret) {
    if (typeof fields.secret !== "string" || fields.secret === "") throw new TypeError(`${contract.id}: secret is required (${contract.bearerSecret})`);
    headers.authorization = `Bearer ${fields.secret}`;
    delete fields.secret;
  }
  const path = contract.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = fields[name];
    if (typeof value !== "string" || value === "") throw new TypeError(`${contract.id}: ${name} is required`);
    delete fields[name];
    return encodeURIComponent(value);
  });
  const init: RequestInit = { method: contract.method.toUpperCase(), headers, redirect: "error" };
  if (contract.method === "post") {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(fields);
  }
  return { path, init };
}
