// While the database is away, a signed-in person is told the service is unavailable, not to sign in:
// whether their session still stands cannot be read, and "sign in" would send them to a form that
// cannot work either. The session callback is next-auth's real one; the database is made unreachable
// by pointing the app at a port nothing listens on.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

import type { Actor } from "@/lib/server/auth/permissions";
import { setEnv } from "@/lib/testing/env";
import { makeUser } from "@/lib/testing/factories";

// getServerSession outside Next has no cookie: it hands the token a signed-in browser would carry
// to next-auth's own session callback, as next-auth does, and like next-auth (core/routes/session)
// treats a callback that throws as no session (next-auth also clears the cookie then).
const cookie = vi.hoisted(() => ({ token: null as { sub: string; signedInAt: number } | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async (options: { callbacks: { session: (args: unknown) => Promise<unknown> } }) =>
    cookie.token
      ? options.callbacks.session({ session: { expires: "" }, token: cookie.token }).catch(() => null)
      : null,
}));

const { authOptions } = await import("./options");
const { createAction } = await import("@/lib/server/action");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");

const testDatabaseUrl = process.env.DATABASE_URL!;
let person: Actor;

beforeAll(async () => {
  person = await makeUser("ANNOTATOR", ["python"]);
});

async function withDatabaseAway<T>(work: () => Promise<T>): Promise<T> {
  await disconnectPrisma();
  await closePgPool();
  // Nothing listens here: every query is refused, as when PostgreSQL is stopped.
  const port = Number(process.env.VERITY_TEST_DB_PORT ?? 54339) + 8;
  setEnv({ DATABASE_URL: `postgresql://verity:verity@127.0.0.1:${port}/verity` });
  try {
    return await work();
  } finally {
    await disconnectPrisma();
    await closePgPool();
    setEnv({ DATABASE_URL: testDatabaseUrl });
  }
}

afterAll(() => setEnv({ DATABASE_URL: testDatabaseUrl }));

describe("a signed-in person while the database is away", () => {
  it("keeps their session (it cannot be checked) rather than being signed out", async () => {
    const session = await withDatabaseAway(async () =>
      authOptions.callbacks!.session!({
        session: { expires: "" },
        token: { sub: person.id, signedInAt: Date.now() },
      } as never),
    );
    expect(session).toMatchObject({ userId: person.id });
  });

  it("is told by an action that the service is unavailable, not to sign in", async () => {
    const action = createAction("labels:write", z.object({}), async () => "done");
    cookie.token = { sub: person.id, signedInAt: Date.now() };
    try {
      const result = await withDatabaseAway(() => action({}));
      expect(result).toMatchObject({ ok: false, code: "UNAVAILABLE" });
    } finally {
      cookie.token = null;
    }
    // And once it is back, the same session works.
    cookie.token = { sub: person.id, signedInAt: Date.now() };
    try {
      expect(await action({})).toEqual({ ok: true, data: "done" });
    } finally {
      cookie.token = null;
    }
  });
});
