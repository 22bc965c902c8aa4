// The one permission table: every mutation and protected read names a scope from it.
import { CRITIC_READING_REASONS, type EvidenceReason } from "@/lib/evidence/suspicion";
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
  // Record revisions: proposing a repair (annotators in their languages, reviewers, admins) and the
  // blind second check that accepts or rejects someone else's (revisions.ts decides whose).
  "revisions:write",
  "revisions:check",
  // Releases: cutting one (admins, the operator CLI) and reading or downloading them.
  "releases:write",
  "releases:read",
  // LLM critics run from Verity: admins define and run them; reviewers read their calibration and
  // results. Annotators never: in blind mode no critic verdict may reach them (visibility.ts).
  "critics:admin",
  "critics:read",
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ["ADMIN", "REVIEWER", "ANNOTATOR"] as const satisfies readonly Role[];

const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  ADMIN: SCOPES,
  REVIEWER: [
    "records:read",
    "labels:write",
    "sandbox:run",
    "reviews:write",
    "reports:export",
    "tokens:write",
    "audit:read",
    "comments:write",
    "gold:read",
    "revisions:write",
    "revisions:check",
    "releases:read",
    "critics:read",
  ],
  ANNOTATOR: [
    "records:read",
    "labels:write",
    "sandbox:run",
    "tokens:write",
    "comments:write",
    "revisions:write",
    "revisions:check",
  ],
};

/** Who is acting: a signed-in user or the owner of an API token, with the role read from the database. */
export type Actor = { id: string; email: string; name: string | null; role: Role; languages: string[] };

/**
 * Verity's own processes, which act for no person: the operator's commands at the server's shell
 * (`verity import`, `report`, `verify`, `users`, `tokens`), the verification workers, and the demo
 * dataset loaded at start-up. No request can become one: only server code passes these constants.
 * It sees every campaign and record (nothing is hidden from it), and its audit rows have no person.
 */
export type SystemActor = { kind: "system"; reason: SystemReason };
export type SystemReason = "cli" | "worker" | "startup";

const SYSTEM_SCOPES: Record<SystemReason, readonly Scope[]> = {
  // Whoever has the server's shell administers Verity; what only a person does (labelling,
  // reviewing, commenting, interactive runs, reading the audit log) stays out.
  cli: [
    "records:read",
    "imports:write",
    "datasets:verify",
    "campaigns:admin",
    "reports:export",
    "users:admin",
    "tokens:write",
    "releases:write",
    "releases:read",
    "critics:admin",
    "critics:read",
  ],
  // A worker reads the records of a batch and writes their verification, or asks a critic about them;
  // it builds a release someone cut (releases:write was checked on them): the dataset report read,
  // the entries written.
  worker: ["records:read", "datasets:verify", "critics:admin", "reports:export", "releases:read", "releases:write"],
  // The demo dataset imported into an empty database when the server starts.
  startup: ["imports:write"],
};

/** The system actors; CLI commands, workers and start-up pass these instead of a person. Frozen: no caller widens one. */
export const SYSTEM_ACTOR = Object.freeze({
  cli: Object.freeze({ kind: "system", reason: "cli" }),
  worker: Object.freeze({ kind: "system", reason: "worker" }),
  startup: Object.freeze({ kind: "system", reason: "startup" }),
} as const satisfies Record<SystemReason, SystemActor>);

/** Whether Verity itself acts (a user's actor never has a `kind`). */
export function isSystemActor(actor: Pick<Actor, "role"> | SystemActor): actor is SystemActor {
  return "kind" in actor && actor.kind === "system";
}

/** The person behind an actor, for createdById and audit columns; null for the system. */
export function personIdOf(actor: Actor | SystemActor): string | null {
  return isSystemActor(actor) ? null : actor.id;
}

/** Whether the actor's role (or the system actor's reason) grants the scope; use it to hide UI, and assertCan to enforce. */
export function can(actor: Pick<Actor, "role"> | SystemActor | null | undefined, scope: Scope): boolean {
  if (!actor) return false;
  return isSystemActor(actor) ? SYSTEM_SCOPES[actor.reason].includes(scope) : ROLE_SCOPES[actor.role].includes(scope);
}

/**
 * The scope that finding records by an evidence reason needs: a reason that reads the critic beside
 * execution is for people who review (a campaign may keep the critic from annotators); the others
 * only need to read records.
 */
export function evidenceReasonScope(reason: EvidenceReason): Scope {
  return CRITIC_READING_REASONS.includes(reason) ? "reviews:write" : "records:read";
}
