#!/usr/bin/env node
// The package bin: runs the TypeScript MCP server through tsx, so it works from a clone without
// a build (docs/decisions/0005 and 0007).
import { register } from "tsx/esm/api";

register();
await import("../src/mcp/main.ts");
