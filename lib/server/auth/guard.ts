import "server-only";

import { AppError } from "@/lib/server/errors";

import { type Actor, can, isSystemActor, type Scope, type SystemActor } from "./permissions";

/**
 * Throws FORBIDDEN unless the actor's role (or the system actor's reason) grants the scope;
 * UNAUTHENTICATED without an actor. A missing actor is never the system: that one is passed by name.
 */
export function assertCan<A extends Actor | SystemActor>(actor: A | null, scope: Scope): asserts actor is A {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in or send an API token.");
  if (can(actor, scope)) return;
  throw new AppError(
    "FORBIDDEN",
    isSystemActor(actor)
      ? `The ${actor.reason} system actor does not hold ${scope}.`
      : `Your role (${actor.role.toLowerCase()}) does not allow ${scope}.`,
  );
}
