// Which cookies next-auth sets, read from the configuration as the app reads it at start.
import { afterEach, describe, expect, it, vi } from "vitest";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

async function cookiesUnder(env: Record<string, string | undefined>) {
  process.env = { ...saved, ...env };
  vi.resetModules();
  (await import("@/lib/server/config")).reloadConfig();
  const { authOptions } = await import("./options");
  return { isSecure: authOptions.useSecureCookies, cookies: authOptions.cookies ?? {} };
}

describe("session cookies", () => {
  it("are __Host- prefixed and Secure behind an https public URL", async () => {
    const { isSecure, cookies } = await cookiesUnder({
      VERITY_PUBLIC_URL: "https://verity.example",
      VERITY_SECURE_COOKIES: undefined,
    });
    expect(isSecure).toBe(true);
    for (const cookie of Object.values(cookies)) {
      expect(cookie.name).toMatch(/^__Host-next-auth\./);
      expect(cookie.options).toMatchObject({ secure: true, path: "/", httpOnly: true });
      expect(cookie.options).not.toHaveProperty("domain");
    }
    expect(cookies.sessionToken?.name).toBe("__Host-next-auth.session-token");
  });

  it("take VERITY_SECURE_COOKIES=true as well as 1", async () => {
    for (const flag of ["true", "1"]) {
      const { isSecure, cookies } = await cookiesUnder({
        VERITY_PUBLIC_URL: "http://verity.internal",
        VERITY_SECURE_COOKIES: flag,
      });
      expect(isSecure, flag).toBe(true);
      expect(cookies.sessionToken?.name, flag).toBe("__Host-next-auth.session-token");
    }
  });

  it("keep next-auth's plain names over plain HTTP", async () => {
    const { isSecure, cookies } = await cookiesUnder({
      VERITY_PUBLIC_URL: "http://localhost:3000",
      VERITY_SECURE_COOKIES: "false",
    });
    expect(isSecure).toBe(false);
    expect(cookies.sessionToken).toMatchObject({ name: "next-auth.session-token", options: { secure: false } });
  });
});
