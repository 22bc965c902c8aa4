// The dataset page's one read (readDatasetPage): each role gets the parts its scopes allow and
// nothing else — the gold count for gold:read, releases for releases:read, the latest batches and
// the harness choice for datasets:verify — so the page cannot show a part by forgetting a check.
import { beforeAll, describe, expect, it } from "vitest";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { readDatasetPage } from "@/lib/server/records/dataset-page";
import { getDatasetHarness, setDatasetHarness } from "@/lib/server/verification/harness";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

let dataset: string;

const read = (actor: Awaited<ReturnType<typeof makeUser>>, datasetName = dataset) =>
  readDatasetPage({ actor, datasetName, filters: {}, limit: 2, releases: { limit: 5 } });

beforeAll(async () => {
  dataset = uniqueName("dataset-page");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: SYSTEM_ACTOR.cli,
    datasetName: dataset,
    source: chunks(toJsonl([0, 1, 2].map((n) => makeRecord(`${seed}_${n}`)))),
    skipInvalid: false,
    origin: "api",
  });
  await setDatasetHarness({ actor: SYSTEM_ACTOR.cli, datasetName: dataset, harness: { java: "java-main" } });
});

/** An open (not blind) campaign over the dataset, which makes it visible to annotators of Python. */
const openCampaign = () =>
  createCampaign({
    actor: SYSTEM_ACTOR.cli,
    input: {
      dataset,
      name: uniqueName("dataset-page"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });

describe("the dataset page's read", () => {
  it("gives an annotator the records and filters only, once a campaign in their language holds the dataset", async () => {
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    await expect(read(annotator)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await openCampaign();
    const view = await read(annotator);
    expect(view.page.total).toBe(3);
    expect(view.page.items.map((record) => record.language)).toEqual(["python", "python"]);
    expect(view.facets.languages).toEqual([{ language: "python", count: 3 }]);
    expect(view).toMatchObject({ goldCount: null, releases: null, verifying: null });
  });

  it("gives a reviewer the gold count and releases, not the batches or the harness", async () => {
    const view = await read(await makeUser("REVIEWER", ["python"]));
    expect(view.goldCount).toBe(0);
    expect(view.releases).not.toBeNull();
    expect(view.verifying).toBeNull();
  });

  it("gives an admin the latest batches and the harness choice as stored", async () => {
    const view = await read(await makeUser("ADMIN", ["python"]));
    expect(view.verifying).toEqual({ latestEvidence: null, latestVerification: null, harness: { java: "java-main" } });
  });

  it("answers NOT_FOUND for a dataset that does not exist", async () => {
    await expect(read(await makeUser("ADMIN"), uniqueName("missing"))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the harness choice as read", () => {
  it("reads a stored value that is not a choice as none, and an unknown dataset as NOT_FOUND", async () => {
    await prisma().dataset.update({ where: { name: dataset }, data: { harness: { java: 7 } } });
    expect(await getDatasetHarness({ actor: SYSTEM_ACTOR.cli, datasetName: dataset })).toEqual({});
    await expect(
      getDatasetHarness({ actor: SYSTEM_ACTOR.cli, datasetName: uniqueName("missing") }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      setDatasetHarness({ actor: SYSTEM_ACTOR.cli, datasetName: uniqueName("missing"), harness: {} }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("is refused to a reviewer (datasets:verify)", async () => {
    await expect(getDatasetHarness({ actor: await makeUser("REVIEWER"), datasetName: dataset })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});
