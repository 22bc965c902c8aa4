// The page proxy (proxy.ts) sets the Content-Security-Policy: it must run for every page request,
// prefetches included, and leave API routes and static files alone.
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";

import { config, proxy } from "@/proxy";

const PREFETCH_HEADERS: Record<string, string>[] = [
  { purpose: "prefetch" },
  { "next-router-prefetch": "1" },
  { "sec-purpose": "prefetch" },
];

describe("the page proxy", () => {
  it("runs for pages, prefetched or not", () => {
    for (const headers of [{}, ...PREFETCH_HEADERS])
      for (const url of ["/", "/campaigns", "/records/abc", "/signin"])
        expect(unstable_doesMiddlewareMatch({ config, url, headers }), `${url} ${JSON.stringify(headers)}`).toBe(true);
  });

  it("leaves API routes and static files alone", () => {
    for (const url of ["/api/v1/campaigns", "/_next/static/chunk.js", "/monaco/vs/loader.js", "/favicon.ico"])
      expect(unstable_doesMiddlewareMatch({ config, url }), url).toBe(false);
  });

  it("answers a prefetch with the policy", async () => {
    for (const headers of PREFETCH_HEADERS) {
      const response = await proxy(new NextRequest("http://localhost/campaigns", { headers }));
      expect(response.headers.get("content-security-policy")).toMatch(
        /script-src 'self' 'nonce-[^']+' 'strict-dynamic'/,
      );
    }
  });
});

describe("server action bodies", () => {
  const action = (bytes: number) =>
    new NextRequest("http://localhost/campaigns/c1/items/i1", {
      method: "POST",
      headers: { "next-action": "abc123", "content-length": String(bytes), "content-type": "text/plain" },
    });

  it("answers a body over 1 MB with a clear 413, before Next.js reads it", async () => {
    const response = await proxy(action(1024 * 1024 + 1));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/1 MB/) },
    });
  });

  it("lets a body within the limit through", async () => {
    const response = await proxy(action(1024 * 1024));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBeTruthy();
  });
});

describe("paths whose escapes do not decode", () => {
  const MALFORMED = ["/api/v1/records/%ff", "/api/v1/campaigns/%E0%A4%A", "/invite/%ff", "/records/%ff"];

  it("reach the proxy, pages and API alike, and are not found", async () => {
    for (const url of [...MALFORMED, "/api/v1/datasets/%ff/records", "/api/v1/datasets/a%zz"]) {
      expect(unstable_doesMiddlewareMatch({ config, url }), url).toBe(true);
      expect((await proxy(new NextRequest(`http://localhost${url}`))).status, url).toBe(404);
    }
    const api = await proxy(new NextRequest("http://localhost/api/v1/records/%ff"));
    expect(await api.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("leave API paths with well-formed escapes alone, so an import's body is never copied", () => {
    for (const url of ["/api/v1/datasets/caf%C3%A9/records", "/api/v1/datasets/a%20b/records", "/api/v1/records/12"])
      expect(unstable_doesMiddlewareMatch({ config, url }), url).toBe(false);
  });
});

describe("server action bodies sent without a length", () => {
  const chunked = (bytes: number) =>
    new NextRequest("http://localhost/settings/tokens", {
      method: "POST",
      headers: { "next-action": "abc123", "content-type": "text/plain" },
      body: new ReadableStream({
        start(controller) {
          for (let sent = 0; sent < bytes; sent += 64 * 1024) controller.enqueue(new Uint8Array(64 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);

  it("are refused with 413 once they pass 1 MB, and let through below it", async () => {
    expect((await proxy(chunked(3 * 1024 * 1024))).status).toBe(413);
    expect((await proxy(chunked(512 * 1024))).status).toBe(200);
  });
});
