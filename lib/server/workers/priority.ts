import "server-only";

import { type Actor, isSystemActor, type SystemActor } from "@/lib/server/auth/permissions";

// Which queued work runs first. pg-boss hands out the job of highest priority, then the oldest, so
// a verification someone starts after `npm start` runs before the demo's solver runs queued at
// startup, instead of waiting behind all of them.

/** Queue priorities: work a person started (the app, REST, the CLI), then work Verity started on its own. */
export const JOB_PRIORITY = { person: 10, background: 0 } as const;

/**
 * The priority of jobs queued for whoever started the work: background only for Verity's own starts
 * (the demo at start-up, workers). Reads who it is, grants nothing: the start itself checks its scope.
 */
export function jobPriority(startedBy: Actor | SystemActor): number {
  return isSystemActor(startedBy) && startedBy.reason !== "cli" ? JOB_PRIORITY.background : JOB_PRIORITY.person;
}
