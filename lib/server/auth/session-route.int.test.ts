// next-auth's own /api/auth/session, read with a real session cookie and Verity's auth options: it
// must not vouch for a session that sign-out (or disabling the person) has revoked. Called through
// next-auth's API-route entry, which takes the request as given (its app-route entry reads
// next/headers, which needs Next's request scope); both run the same core with the same options.
import NextAuth from "next-auth";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";

import { makeUser } from "@/lib/testing/factories";
import { setEnv } from "@/lib/testing/env";

const SECRET = "session-route-test-secret";
setEnv({ NEXTAUTH_SECRET: SECRET });
setEnv({ NEXTAUTH_URL: "http://localhost:3000" });

const { authOptions } = await import("./options");
const { revokeSessions } = await import("@/lib/server/users/users");

async function sessionOf(cookie: string): Promise<Record<string, unknown>> {
  let sent: unknown;
  const response = {
    status: () => response,
    setHeader: () => response,
    getHeader: () => undefined,
    end: () => response,
    json: (body: unknown) => ((sent = body), response),
    send: (body: unknown) => ((sent = body), response),
  };
  await NextAuth(
    {
      query: { nextauth: ["session"] },
      cookies: { "next-auth.session-token": cookie },
      headers: { host: "localhost:3000" },
      method: "GET",
      body: {},
    } as never,
    response as never,
    authOptions,
  );
  return (typeof sent === "string" ? JSON.parse(sent) : sent) as Record<string, unknown>;
}

describe("/api/auth/session", () => {
  let user: { id: string; email: string };
  const cookieOf = (signedInAt: number) =>
    encode({ token: { sub: user.id, email: user.email, signedInAt }, secret: SECRET });

  beforeAll(async () => {
    user = await makeUser("ANNOTATOR", ["python"]);
  });

  it("names the signed-in person while the session stands, and nobody once it is revoked", async () => {
    const cookie = await cookieOf(Date.now() - 60_000);
    expect(await sessionOf(cookie)).toMatchObject({ user: { email: user.email }, userId: user.id });
    await revokeSessions({ userId: user.id });
    const body = await sessionOf(cookie);
    expect(JSON.stringify(body)).not.toContain(user.email);
    expect(JSON.stringify(body)).not.toContain(user.id);
    // A session signed in after the revocation stands.
    expect(await sessionOf(await cookieOf(Date.now() + 1000))).toMatchObject({ userId: user.id });
  });
});
