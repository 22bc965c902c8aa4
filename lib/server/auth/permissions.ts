// The one permission table: every mutation and protected read names a scope from it.
import type { Role } from "@/lib/generated/prisma/enums";

export const SCOPES = [
  "records:read",
  "labels:write",
  "sandbox:run",
  "reviews:write",
  "imports:write",
  "datasets:verify",
  "campaigns:admin",
  "reports:export",
  "users:admin",
  "tokens:write",
  // The audit log: admins read all of it, reviewers the events of campaigns (see listAuditEvents).
  "audit:read",
  // Item comment threads; which threads is decided per item (assigned annotators, reviewers, admins).
  "comments:write",
  // The sandbox status page: paths, versions and why a toolchain is missing (operator detail).
  "sandbox:admin",
  // Gold answers (records' known verdicts): admins set them; reviewers may read them; annotators never.
  "gold:write",
  "gold:read",
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ["ADMIN", "REVIEWER", "ANNOTATOR"] as const satisfies readonly Role[];

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  ADMIN: SCOPES,
  REVIEWER: ["records:read", "labels:write", "sandbox:run", "reviews:write", "reports:export", "tokens:write", "audit:read", "comments:write", "gold:read"],
  ANNOTATOR: ["records:read", "labels:write", "sandbox:run", "tokens:write", "comments:write"],
};

/** Who is acting: a signed-in user or the owner of an API token, with the role read from the database. */
export type Actor = { id: string; email: string; name: string | null; role: Role; languages: string[] };

/** Whether the actor's role grants the scope; use it to hide UI, and assertCan to enforce. */
export function can(actor: Pick<Actor, "role"> | null | undefined, scope: Scope): boolean {
  return actor ? ROLE_SCOPES[actor.role].includes(scope) : false;
}

/** The scopes a role holds, for display. */
export function scopesOf(role: Role): readonly Scope[] {
  return ROLE_SCOPES[role];
}
