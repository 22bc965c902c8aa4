// The action wrappers as a form sees them: every failure comes back as a value, with field errors
// for bad input, the AppError's own message, and nothing of an unexpected error's internals.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

const session = vi.hoisted(() => ({ actor: null as Actor | null }));
vi.mock("@/lib/server/auth/actor", () => ({ getSessionActor: async () => session.actor }));

const { createAction, createPublicAction } = await import("./action");

const schema = z.object({ email: z.string().email("Enter an email address.") });

afterEach(() => {
  session.actor = null;
  vi.restoreAllMocks();
});

describe("createPublicAction", () => {
  it("runs the body with the parsed input and no session", async () => {
    const action = createPublicAction(schema.extend({ name: z.string().trim() }), async ({ input }) => ({
      greeting: `hi ${input.name}`,
    }));
    expect(await action({ email: "a@example.com", name: "  Ada " })).toEqual({
      ok: true,
      data: { greeting: "hi Ada" },
    });
  });

  it("answers bad input with zod's field errors, without calling the body", async () => {
    const body = vi.fn(async () => null);
    const result = await createPublicAction(schema, body)({ email: "nope" });
    expect(result).toEqual({
      ok: false,
      code: "INVALID_INPUT",
      message: "Please fix the highlighted fields.",
      fieldErrors: { email: ["Enter an email address."] },
    });
    expect(body).not.toHaveBeenCalled();
  });

  it("keeps an AppError's code and message, and hides anything else", async () => {
    const refused = createPublicAction(schema, async () => {
      throw new AppError("CONFLICT", "An admin already exists. Sign in instead.");
    });
    expect(await refused({ email: "a@example.com" })).toEqual({
      ok: false,
      code: "CONFLICT",
      message: "An admin already exists. Sign in instead.",
      fieldErrors: undefined,
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = createPublicAction(schema, async () => {
      throw new Error("relation users does not exist");
    });
    const result = await broken({ email: "a@example.com" });
    expect(result).toMatchObject({ ok: false, code: "INTERNAL" });
    expect(JSON.stringify(result)).not.toContain("relation");
  });
});

describe("createAction", () => {
  it("refuses a signed-out caller before parsing, and a role without the scope", async () => {
    const body = vi.fn(async () => null);
    const action = createAction("users:admin", schema, body);
    expect(await action({ email: "nope" })).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    session.actor = { id: "u1", email: "a@example.com", name: null, role: "ANNOTATOR", languages: [] };
    expect(await action({ email: "a@example.com" })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(body).not.toHaveBeenCalled();
  });

  it("passes the actor and the parsed input to the body", async () => {
    session.actor = { id: "u1", email: "a@example.com", name: null, role: "ADMIN", languages: [] };
    const action = createAction("users:admin", schema, async ({ input, actor }) => `${actor.id}:${input.email}`);
    expect(await action({ email: "b@example.com" })).toEqual({ ok: true, data: "u1:b@example.com" });
  });
});
