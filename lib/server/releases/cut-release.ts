import "server-only";

import { RECORDS_RELEASED_IN_REQUEST } from "@/lib/releases/release-build";
import type { ReleaseRule } from "@/lib/releases/types";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { queueReleaseBuild, runReleaseBuild } from "@/lib/server/releases/release-queue";

import { countDatasetRecords, findDatasetForRelease, findRelease, reserveRelease } from "./queries";

function describeRule(requireExecutable: boolean): string {
  return [
    "A record is in when its final label is valid: the strongest resolved label across the dataset's campaigns (an adjudication beats annotators' labels, more agreeing annotators beat fewer, the latest campaign on a tie), under each campaign's aggregation rule.",
    "A record repaired after labelling is in at its accepted revision: the blind second check labelled the revised record valid, and labels given on earlier revisions no longer speak for it.",
    'A gold record (an admin\'s known verdict, which gold items measure annotators against; gold items count in no rate) is in or out by that verdict (decided_by "gold").',
    "Records finally invalid, unresolved (annotators disagree, no decision yet) or never labelled are out.",
    requireExecutable
      ? "Also out: records whose canonical solution did not pass both its demo and full test in the sandbox (or was never run)."
      : "Execution results are reported beside each record but do not decide.",
  ].join(" ");
}

/** A cut release: READY with its counts (built inside the request), or BUILDING (a job builds it). */
export type CutRelease =
  | { name: string; status: "READY"; records: number; excluded: number; revised: number }
  | { name: string; status: "BUILDING" };

/**
 * Cuts a release of a dataset under a new name: the name is reserved now (a name the dataset has is
 * refused, CONFLICT), then the validity table, the method disclosure and every record's entry are
 * stored and never change (buildRelease). A dataset of at most RECORDS_RELEASED_IN_REQUEST records is
 * built inside the call, which answers READY with the counts; a larger one is built by a job, and the
 * call answers BUILDING at once (the release list says when it is READY, or why it FAILED).
 * Scope: releases:write.
 */
export async function cutRelease({
  actor,
  datasetName,
  name,
  requireExecutable = false,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  name: string;
  requireExecutable?: boolean;
}): Promise<CutRelease & { id: string }> {
  assertCan(actor, "releases:write");
  const dataset = await findDatasetForRelease({ actor, datasetName });
  const rule: ReleaseRule = {
    name: "final-label-valid",
    requireExecutable,
    description: describeRule(requireExecutable),
  };
  const records = await countDatasetRecords({ datasetId: dataset.id });
  const { id } = await reserveRelease({ actor, datasetId: dataset.id, name, rule });
  if (records > RECORDS_RELEASED_IN_REQUEST) {
    await queueReleaseBuild(actor, { releaseId: id });
    return { id, name, status: "BUILDING" };
  }
  await runReleaseBuild({ releaseId: id });
  // Built, or FAILED with its reason (findRelease says it): the same answer a job's failure gives.
  const built = await findRelease({ actor, datasetName, name });
  const { records: included, excluded, revised } = built.summary;
  return { id, name, status: "READY", records: included, excluded, revised };
}
