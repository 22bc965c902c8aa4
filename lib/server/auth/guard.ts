import "server-only";

import { AppError } from "@/lib/server/errors";

import { type Actor, can, type Scope } from "./permissions";

/** Throws FORBIDDEN unless the actor's role grants the scope (UNAUTHENTICATED without an actor). */
export function assertCan(actor: Actor | null, scope: Scope): asserts actor is Actor {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in or send an API token.");
  if (!can(actor, scope)) throw new AppError("FORBIDDEN", `Your role (${actor.role.toLowerCase()}) does not allow ${scope}.`);
}
