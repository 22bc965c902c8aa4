import { describe, expect, it } from "vitest";

import { isLoopbackUrl, QUIET_CHROMIUM_ARGS } from "./browser";

describe("isLoopbackUrl", () => {
  it("lets through this machine's addresses and URLs that need no network", () => {
    for (const url of [
      "http://localhost:3280/campaigns/x/next",
      "http://127.0.0.1:41234/api/health",
      "http://127.8.9.10/",
      "http://[::1]:3000/",
      "data:text/plain,hello",
      "blob:http://localhost:3000/0f1e",
      "about:blank",
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
  });

  it("stops every other host, including ones that only look local", () => {
    for (const url of [
      "https://fonts.googleapis.com/css",
      "http://10.0.0.5/",
      "http://192.168.1.1/",
      "http://localhost.example.com/",
      "http://127.0.0.1.nip.io/",
      "not a url",
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});

describe("QUIET_CHROMIUM_ARGS", () => {
  it("turns off Chromium's own background work", () => {
    expect(QUIET_CHROMIUM_ARGS).toEqual(
      expect.arrayContaining([
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--mute-audio",
      ]),
    );
  });
});
