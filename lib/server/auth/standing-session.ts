import "server-only";

import { cache } from "react";

import { findActorBySession } from "@/lib/server/users/users";

import type { Actor } from "./permissions";

/**
 * The actor of a session that still stands (not signed out, revoked or disabled since it was signed
 * in), or null. Read once per request: next-auth's session callback and getSessionActor both ask.
 */
export const standingSessionActor = cache((userId: string, signedInAt: number): Promise<Actor | null> =>
  findActorBySession({ userId, signedInAt }),
);
