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

  it("has the routes answer JSON through answer(), so the compiler holds each answer to its catalog schema", () => {
    const untyped = routeFiles(API_DIR)
      .filter((file) => !file.endsWith(join("openapi.json", "route.ts")))
      .filter((file) => readFileSync(file, "utf8").includes("Response.json("))
      .map((file) => relative(API_DIR, file));
    expect(untyped).toEqual([]);
  });

  it("builds an OpenAPI document with every path and its scope", () => {
    const document = openApiDocument("http://localhost:3000");
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/campaigns/{id}/report");
    expect(JSON.stringify(document.paths["/items/{id}/adjudication"])).toContain("reviews:write");
  });
});

describe("API catalog response schemas", () => {
  // Operations that landed before their schema; each must get one (and leave this list). None now.
  const NOT_YET_DESCRIBED: string[] = [];

  it("gives every operation the shape of its success answer; only an operation whose every success is a 204 has none", () => {
    const undescribed = API_OPERATIONS.filter((operation) => operation.response === undefined).map(
      (operation) => `${operation.method} ${operation.path}`,
    );
    expect(undescribed.sort()).toEqual([...NOT_YET_DESCRIBED].sort());
    for (const operation of API_OPERATIONS.filter((entry) => entry.response !== undefined)) {
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
      const name = `${operation.method} ${operation.path}`;
      expect(successes.length, name).toBeGreaterThan(0);
      if (operation.response === null) expect(successes, name).toEqual(["204"]);
      else
        expect(
          successes.some((status) => status !== "204"),
          name,
        ).toBe(true);
    }
  });

  it("puts each schema in the OpenAPI document under every success with a body", () => {
    const document = openApiDocument("http://localhost:3000");
    for (const operation of API_OPERATIONS.filter((entry) => entry.response !== undefined)) {
      const described = (document.paths[operation.path] as Record<string, { responses: Record<string, unknown> }>)[
        operation.method.toLowerCase()
      ].responses;
      for (const status of Object.keys(operation.responses).filter((code) => /^2\d\d$/.test(code) && code !== "204")) {
        const { content } = described[status] as { content?: Record<string, { schema: unknown }> };
        const json =
          content?.[operation.file ?? (operation.stream === "jsonl" ? "application/x-ndjson" : "application/json")];
        expect(json?.schema, `${operation.method} ${operation.path} ${status}`).toMatchObject({
          $schema: "https://json-schema.org/draft/2020-12/schema",
        });
      }
    }
  });

  it("describes the report's text formats and the export's JSON Lines", () => {
    const document = openApiDocument("http://localhost:3000");
    const report = (document.paths["/campaigns/{id}/report"] as { get: { responses: Record<string, unknown> } }).get;
    expect(Object.keys((report.responses["200"] as { content: object }).content)).toEqual([
      "application/json",
      "text/csv",
      "text/markdown",
    ]);
    const exported = (document.paths["/campaigns/{id}/export"] as { get: { responses: Record<string, unknown> } }).get;
    expect(Object.keys((exported.responses["200"] as { content: object }).content)).toEqual([
      "application/x-ndjson",
      "text/csv",
    ]);
  });

  it("refuses a field the answer does not have (strict shapes), so a leaked field fails the route tests", () => {
    const claim = API_OPERATIONS.find((operation) => operation.path === "/campaigns/{id}/claim")!.response!;
    const answer = {
      item: { id: "itm_1", campaignId: "c1" },
      record: {
        id: 1,
        key: "k",
        line: 1,
        language: "python",
        difficulty: null,
        question: "q",
        canonicalSolution: "s",
        demoTestFunc: "d",
        fullTestFunc: "f",
        extra: {},
        critic: null,
        verificationOutcome: null,
      },
      leaseExpiresAt: "2026-12-01T12:00:00.000Z",
      categories: [],
    };
    expect(claim.safeParse(answer).success).toBe(true);
    expect(claim.safeParse({ ...answer, record: { ...answer.record, executableValid: true } }).success).toBe(false);
    expect(claim.safeParse({ ...answer, record: { ...answer.record, isCriticHidden: true } }).success).toBe(false);
  });
});
