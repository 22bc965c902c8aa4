import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";

import { expect, test } from "@playwright/test";

import { ensurePeople, signIn, annotator } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// Requests a server answers badly when it takes them for its own failure: a path whose percent
// escapes do not decode (a link mangled by a mail client, a scanner) is "not found", and a server
// action body streamed past the limit without a length is "too large", never a 500.

const MALFORMED_PATHS = [
  "/api/v1/records/%ff",
  "/api/v1/campaigns/%E0%A4%A",
  "/invite/%ff",
  "/records/%ff",
  "/campaigns/%ff",
  "/datasets/%ff/report",
];

test("a path with a malformed percent-encoding is not found, signed in or not", async ({ browser }) => {
  const signedOut = await browser.newContext();
  const signedIn = await browser.newContext();
  await signIn(await signedIn.newPage(), annotator);
  for (const context of [signedOut, signedIn]) {
    for (const path of MALFORMED_PATHS) {
      const answer = await context.request.get(path, { maxRedirects: 0 });
      // Signed out, a page may send the visitor to sign in first; never a server error.
      expect(answer.status(), path).not.toBe(500);
      if (context === signedIn || path.startsWith("/invite/")) expect(answer.status(), path).toBe(404);
    }
  }
  await signedOut.close();
  await signedIn.close();
});

/** The id Next.js gave a server action in this build (the page posts it in the Next-Action header). */
function actionId(file: string, exportedName: string): string {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const found = Object.entries(manifest.node).find(
    ([, action]) => action.filename === file && action.exportedName === exportedName,
  );
  if (!found) throw new Error(`no action ${exportedName} in ${file}`);
  return found[0];
}

/** POSTs `bytes` to `path` as a server action, chunked (no Content-Length), and gives the status. */
function postChunkedAction(baseURL: string, path: string, action: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseURL);
    const request = httpRequest(url, {
      method: "POST",
      headers: {
        "next-action": action,
        "content-type": "text/plain;charset=UTF-8",
        origin: url.origin,
        "transfer-encoding": "chunked",
      },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    // The server may answer and close before reading everything: that is the point.
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const writeMore = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

test("a server action body streamed past 1 MB without a length is refused as too large", async ({ baseURL }) => {
  const action = actionId("app/(app)/settings/tokens/actions.ts", "createTokenAction");
  expect(await postChunkedAction(baseURL!, "/settings/tokens", action, 3 * 1024 * 1024)).toBe(413);
});
