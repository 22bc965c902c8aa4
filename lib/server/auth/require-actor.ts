import "server-only";

import { notFound, redirect } from "next/navigation";

import { getSessionActor } from "./actor";
import { type Actor, can, type Scope } from "./permissions";

/** For pages: the signed-in actor holding `scope`; signed-out visitors go to sign-in, others get 404. */
export async function requirePageActor(scope: Scope, path: string): Promise<Actor> {
  const actor = await getSessionActor();
  if (!actor) redirect(`/signin?callbackUrl=${encodeURIComponent(path)}`);
  if (!can(actor, scope)) notFound();
  return actor;
}
