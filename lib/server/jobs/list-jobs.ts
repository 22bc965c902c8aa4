import "server-only";

import { decodeJobCursor, encodeJobCursor, isBefore } from "@/lib/jobs/cursor";
import { jobPace } from "@/lib/jobs/pace";
import { ACTION_FROM, JOB_ACTIONS, JOB_KINDS, type JobAction, type JobPage, type JobView } from "@/lib/jobs/types";
import type { JobQuery } from "@/lib/validation/jobs";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, can, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { failInterruptedImports } from "@/lib/server/imports/imports";

import { JOB_KIND_REGISTRY, type JobKindEntry, type JobRow, startersOf } from "./kinds";

/** The actions the actor may take on a job now: those its kind supports, under the operation's scope, from its status. */
function actionsFor(actor: Actor | SystemActor, entry: JobKindEntry, status: JobRow["status"]): JobAction[] {
  return JOB_ACTIONS.filter((action) => {
    const scope = entry.controls[action];
    return scope !== undefined && can(actor, scope) && ACTION_FROM[action].includes(status);
  });
}

/**
 * A page of every kind of long work the actor may read, newest first: one query per kind with a
 * LIMIT on its (createdAt, id) keyset, merged, so a page costs `limit + 1` rows per kind however
 * many jobs exist. Kinds the actor may not read are left out, not refused (annotators see no
 * imports or critic runs), and annotators see only jobs of the datasets they see.
 * Scope: records:read, and each kind's own read scope (JOB_KIND_REGISTRY).
 */
export async function listJobs({
  actor,
  query,
  now = new Date(),
}: {
  actor: Actor | SystemActor;
  query: JobQuery;
  now?: Date;
}): Promise<JobPage> {
  assertCan(actor, "records:read");
  const cursor = query.cursor === undefined ? undefined : (decodeJobCursor(query.cursor) ?? undefined);
  if (query.cursor !== undefined && cursor === undefined)
    throw new AppError("INVALID_INPUT", "Not a cursor this list handed out.", {
      cursor: ["Pass nextCursor as it came."],
    });
  const entries = JOB_KINDS.map((kind) => JOB_KIND_REGISTRY[kind]).filter(
    (entry) =>
      (query.kind === undefined || entry.kind === query.kind) &&
      can(actor, entry.readScope) &&
      (query.status === undefined || entry.statuses.includes(query.status)),
  );
  // An import whose process died still says RUNNING until someone reads it (imports.ts).
  if (entries.some((entry) => entry.kind === "import") && query.status !== "SUCCEEDED") await failInterruptedImports();
  const pages = await Promise.all(
    entries.map((entry) =>
      entry.read({ actor, cursor, statuses: query.status ? [query.status] : undefined, take: query.limit + 1 }),
    ),
  );
  const merged = pages.flat().sort((a, b) => (isBefore(a, b) ? -1 : isBefore(b, a) ? 1 : 0));
  const rows = merged.slice(0, query.limit);
  const starters = await startersOf([...new Set(rows.flatMap((row) => (row.createdById ? [row.createdById] : [])))]);
  const jobs: JobView[] = rows.map(({ createdById, ...row }) => ({
    ...row,
    startedBy: createdById ? (starters.get(createdById) ?? null) : null,
    startedAt: row.createdAt,
    actions: actionsFor(actor, JOB_KIND_REGISTRY[row.kind], row.status),
    ...jobPace({ ...row, startedAt: row.createdAt, now }),
  }));
  const last = rows.at(-1);
  return { jobs, nextCursor: merged.length > query.limit && last ? encodeJobCursor(last) : null };
}
