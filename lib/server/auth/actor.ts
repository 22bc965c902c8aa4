import "server-only";

import { getServerSession } from "next-auth";

import { findActorByToken } from "@/lib/server/users/tokens";

import { authOptions } from "./options";
import type { Actor } from "./permissions";
import { standingSessionActor } from "./standing-session";

/** The signed-in user of this request (pages, server actions), re-read from the database; null when signed out, disabled or revoked. */
export async function getSessionActor(): Promise<Actor | null> {
  const session = (await getServerSession(authOptions)) as { userId?: string; signedInAt?: number } | null;
  return session?.userId ? standingSessionActor(session.userId, session.signedInAt ?? 0) : null;
}

/** The actor of an API request: a Bearer token when present, otherwise the browser session. */
export async function getRequestActor(request: Request): Promise<Actor | null> {
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match ? findActorByToken(match[1]) : null;
  }
  return getSessionActor();
}
