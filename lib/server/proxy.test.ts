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

  it("answers a prefetch with the policy", () => {
    for (const headers of PREFETCH_HEADERS) {
      const response = proxy(new NextRequest("http://localhost/campaigns", { headers }));
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
    const response = proxy(action(1024 * 1024 + 1));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/1 MB/) },
    });
  });

  it("lets a body within the limit through", () => {
    const response = proxy(action(1024 * 1024));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toBeTruthy();
  });
});
