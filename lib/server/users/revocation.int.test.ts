// Taking access away: sign-out ends sessions server-side, an admin disables a user (sessions and
// tokens stop at the next request) and revokes anyone's token.
import { describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { makeUser } from "@/lib/testing/factories";

import { createApiToken, findActorByToken, listActiveApiTokens, revokeUserApiToken } from "@/lib/server/users/tokens";
import { findActorBySession, revokeSessions, setUserDisabled } from "@/lib/server/users/users";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "expected an AppError").toBeInstanceOf(AppError);
  return (error as AppError).code;
}

const session = (actor: Actor, signedInAt = Date.now()) => ({ userId: actor.id, signedInAt });
const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("sign-out", () => {
  it("refuses every session signed in before it, and only those", async () => {
    const user = await makeUser("ANNOTATOR");
    const before = session(user);
    expect(await findActorBySession(before)).toMatchObject({ id: user.id });
    await later();
    await revokeSessions({ userId: user.id });
    expect(await findActorBySession(before)).toBeNull();
    // A session from before this feature (no sign-in time) counts as old.
    expect(await findActorBySession({ userId: user.id, signedInAt: 0 })).toBeNull();
    await later();
    expect(await findActorBySession(session(user))).toMatchObject({ id: user.id });
  });
});

describe("disabling a user", () => {
  it("stops their session and API tokens at the next request; enabling again does not revive the old session", async () => {
    const admin = await makeUser("ADMIN");
    const user = await makeUser("REVIEWER");
    const { token } = await createApiToken({ actor: user, userId: user.id, name: "script" });
    const open = session(user);
    await later();

    await setUserDisabled({ actor: admin, userId: user.id, disabled: true });
    expect(await findActorBySession(open)).toBeNull();
    expect(await findActorByToken(token)).toBeNull();
    expect(await findActorBySession(session(user))).toBeNull();

    await setUserDisabled({ actor: admin, userId: user.id, disabled: false });
    expect(await findActorBySession(open)).toBeNull();
    expect(await findActorBySession(session(user))).toMatchObject({ id: user.id });
    expect(await findActorByToken(token)).toMatchObject({ id: user.id });
  });

  it("lets only an admin do it, never to themselves, and answers CONFLICT or NOT_FOUND when there is nothing to do", async () => {
    const admin = await makeUser("ADMIN");
    const reviewer = await makeUser("REVIEWER");
    const user = await makeUser("ANNOTATOR");
    expect(await codeOf(setUserDisabled({ actor: reviewer, userId: user.id, disabled: true }))).toBe("FORBIDDEN");
    expect(await codeOf(setUserDisabled({ actor: admin, userId: admin.id, disabled: true }))).toBe("CONFLICT");
    expect(await codeOf(setUserDisabled({ actor: admin, userId: user.id, disabled: false }))).toBe("CONFLICT");
    expect(await codeOf(setUserDisabled({ actor: admin, userId: "no-such-user", disabled: true }))).toBe("NOT_FOUND");
    expect(await findActorBySession(session(user))).toMatchObject({ id: user.id });
  });
});

describe("an admin revoking tokens", () => {
  it("lists everyone's active tokens and revokes any of them", async () => {
    const admin = await makeUser("ADMIN");
    const owner = await makeUser("ANNOTATOR");
    const { token, row } = await createApiToken({ actor: owner, userId: owner.id, name: "leaked" });
    expect((await listActiveApiTokens({ actor: admin })).find((t) => t.id === row.id)).toMatchObject({
      name: "leaked",
      owner: { id: owner.id, email: owner.email },
    });

    await revokeUserApiToken({ actor: admin, tokenId: row.id });
    expect(await findActorByToken(token)).toBeNull();
    expect((await listActiveApiTokens({ actor: admin })).map((t) => t.id)).not.toContain(row.id);
    expect(await codeOf(revokeUserApiToken({ actor: admin, tokenId: row.id }))).toBe("NOT_FOUND");
  });

  it("is for admins only", async () => {
    const reviewer = await makeUser("REVIEWER");
    const owner = await makeUser("ANNOTATOR");
    const { token, row } = await createApiToken({ actor: owner, userId: owner.id, name: "mine" });
    expect(await codeOf(revokeUserApiToken({ actor: reviewer, tokenId: row.id }))).toBe("FORBIDDEN");
    expect(await codeOf(listActiveApiTokens({ actor: reviewer }))).toBe("FORBIDDEN");
    expect(await findActorByToken(token)).toMatchObject({ id: owner.id });
  });
});
