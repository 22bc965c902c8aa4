import "server-only";

import { type Actor, can } from "@/lib/server/auth/permissions";
import { assertCan } from "@/lib/server/auth/guard";
import { latestEvidence } from "@/lib/server/evidence/batches";
import { countGoldAnswers } from "@/lib/server/gold/gold";
import { listReleases } from "@/lib/server/releases/queries";
import { latestVerification } from "@/lib/server/verification/batches";
import { getDatasetHarness } from "@/lib/server/verification/harness";

import { browseRecords, datasetFacets, type RecordFilters } from "./records";

/**
 * What the dataset page shows, read in parallel: a page of the records the actor finds, the filters'
 * choices, and beside them what the actor's role may see — the gold count (gold:read), a page of
 * releases (releases:read), and `verifying`: the latest evidence and verification batches and the
 * harness (datasets:verify); null where the role may not. Scope: records:read; a dataset the actor
 * cannot see is NOT_FOUND.
 */
export async function readDatasetPage({
  actor,
  datasetName,
  filters,
  limit,
  cursor,
  releases,
}: {
  actor: Actor;
  datasetName: string;
  filters: RecordFilters;
  limit: number;
  cursor?: number;
  /** The releases' own page: after the release of this name (newest first), this many. */
  releases: { cursor?: string; limit: number };
}) {
  assertCan(actor, "records:read");
  const [page, facets, goldCount, releasePage, verifying] = await Promise.all([
    browseRecords({ actor, datasetName, filters, limit, cursor }),
    datasetFacets({ actor, datasetName }),
    can(actor, "gold:read") ? countGoldAnswers({ actor, datasetName }) : null,
    can(actor, "releases:read") ? listReleases({ actor, datasetName, ...releases }) : null,
    can(actor, "datasets:verify") ? readVerifying({ actor, datasetName }) : null,
  ]);
  return { page, facets, goldCount, releases: releasePage, verifying };
}

/** The latest evidence and verification batches and the harness choice. Scope: datasets:verify. */
async function readVerifying({ actor, datasetName }: { actor: Actor; datasetName: string }) {
  assertCan(actor, "datasets:verify");
  const [evidence, verification, harness] = await Promise.all([
    latestEvidence({ actor, datasetName }),
    latestVerification({ actor, datasetName }),
    getDatasetHarness({ actor, datasetName }),
  ]);
  return { latestEvidence: evidence, latestVerification: verification, harness };
}
