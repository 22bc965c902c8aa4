// The catalog and the route files must describe the same operations.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

import { API_OPERATIONS, openApiDocument } from "./catalog";

const API_DIR = join(process.cwd(), "app", "api", "v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? routeFiles(path) : name === "route.ts" ? [path] : [];
  });
}

function operationsInRoutes(): string[] {
  return routeFiles(API_DIR).flatMap((file) => {
    const path = `/${relative(API_DIR, file).replace(/\/?route\.ts$/, "")}`.replace(/\[(\w+)\]/g, "{$1}");
    if (path === "/openapi.json") return [];
    const source = readFileSync(file, "utf8");
    return ["GET", "POST", "PUT", "PATCH", "DELETE"]
      .filter((method) => new RegExp(`export (const|async function|function) ${method}\\b`).test(source))
      .map((method) => `${method} ${path}`);
  });
}

describe("API catalog", () => {
  it("lists exactly the operations the route files export", () => {
    const catalog = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).sort();
    expect(catalog).toEqual(operationsInRoutes().sort());
  });

  it("builds an OpenAPI document with every path and its scope", () => {
    const document = openApiDocument("http://localhost:3000");
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/campaigns/{id}/report");
    expect(JSON.stringify(document.paths["/items/{id}/adjudication"])).toContain("reviews:write");
  });
});
