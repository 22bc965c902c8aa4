// The system actor: the CLI, the workers and start-up act as SYSTEM_ACTOR, which the permission
// table treats like a role. No data function treats a missing actor as "the operator" any more: a
// call without an actor is refused, whatever the code path that forgot to pass one.
import { describe, expect, it } from "vitest";

import { can, SCOPES, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { exportCampaign } from "@/lib/server/reports/exports";
import { importCriticFile, importRecords } from "@/lib/server/imports/imports";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";
import { createApiToken } from "@/lib/server/users/tokens";
import { upsertUserFromCli } from "@/lib/server/users/users";
import { getVerificationProgress, verificationByLanguage } from "@/lib/server/verification/batches";
import { startVerification } from "@/lib/server/verification/jobs";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

// What the type system forbids, as a caller that lost its actor would pass it.
const noActor = null as never;

async function makeDatasetWithCampaign() {
  const datasetName = uniqueName("system");
  await importRecords({
    actor: SYSTEM_ACTOR.cli,
    datasetName,
    source: chunks(toJsonl([makeRecord(uniqueName("s"))])),
    skipInvalid: false,
    origin: "cli",
  });
  const campaign = await createCampaign({
    actor: SYSTEM_ACTOR.cli,
    input: {
      dataset: datasetName,
      name: uniqueName("system"),
      overlap: 1,
      agreementFraction: 0,
      blind: true,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  return { datasetName, campaignId: campaign.id };
}

async function drain(lines: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const line of lines) text += line;
  return text;
}

describe("a data function called without an actor", () => {
  it("is refused as unauthenticated, never run as the operator", async () => {
    const { datasetName, campaignId } = await makeDatasetWithCampaign();
    const user = await makeUser("ANNOTATOR");
    const calls: [string, () => Promise<unknown>][] = [
      [
        "importRecords",
        () =>
          importRecords({
            actor: noActor,
            datasetName,
            source: chunks(toJsonl([makeRecord(uniqueName("n"))])),
            skipInvalid: false,
            origin: "cli",
          }),
      ],
      ["importCriticFile", () => importCriticFile({ actor: noActor, datasetName, source: chunks("") })],
      [
        "createCampaign",
        () =>
          createCampaign({
            actor: noActor,
            input: {
              dataset: datasetName,
              name: uniqueName("none"),
              overlap: 1,
              agreementFraction: 0,
              blind: false,
              finalRule: "consensus",
              leaseMinutes: 30,
            },
          }),
      ],
      ["getCampaignReport", () => getCampaignReport({ actor: noActor, campaignId })],
      ["getDatasetReport", () => getDatasetReport({ actor: noActor, datasetName })],
      ["exportCampaign", () => drain(exportCampaign({ actor: noActor, campaignId, what: "labels", format: "jsonl" }))],
      ["startVerification", () => startVerification({ actor: noActor, datasetName, force: false })],
      ["getVerificationProgress", () => getVerificationProgress({ actor: noActor, batchId: "no-such-batch" })],
      ["verificationByLanguage", () => verificationByLanguage({ actor: noActor, datasetName })],
      ["createApiToken", () => createApiToken({ actor: noActor, userId: user.id, name: "none" })],
      [
        "upsertUserFromCli",
        () =>
          upsertUserFromCli({
            actor: noActor,
            email: `${uniqueName("none")}@example.test`,
            role: "ADMIN",
            languages: [],
          }),
      ],
    ];
    for (const [name, call] of calls) {
      await expect(call(), name).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    }
  });
});

describe("the system actor", () => {
  it("acts for no person: it never labels, reviews, comments, runs interactively or reads the audit log", () => {
    for (const actor of Object.values(SYSTEM_ACTOR)) {
      for (const scope of [
        "labels:write",
        "reviews:write",
        "comments:write",
        "sandbox:run",
        "audit:read",
        "sandbox:admin",
      ] as const) {
        expect(can(actor, scope), `${actor.reason} ${scope}`).toBe(false);
      }
    }
  });

  it("holds only what its reason needs: a worker verifies, asks critics and builds releases, start-up imports the demo", () => {
    const held = (reason: keyof typeof SYSTEM_ACTOR) => SCOPES.filter((scope) => can(SYSTEM_ACTOR[reason], scope));
    expect(held("worker")).toEqual([
      "records:read",
      "datasets:verify",
      "reports:export",
      "releases:write",
      "releases:read",
      "critics:admin",
    ]);
    expect(held("startup")).toEqual(["imports:write"]);
  });

  it("is refused what its reason does not hold, like a role", async () => {
    const datasetName = uniqueName("system");
    await expect(
      importRecords({
        actor: SYSTEM_ACTOR.worker,
        datasetName,
        source: chunks(toJsonl([makeRecord(uniqueName("w"))])),
        skipInvalid: false,
        origin: "cli",
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(getDatasetReport({ actor: SYSTEM_ACTOR.startup, datasetName })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("reads every campaign, blind or not, for the operator's reports and exports", async () => {
    const { campaignId } = await makeDatasetWithCampaign();
    const report = await getCampaignReport({ actor: SYSTEM_ACTOR.cli, campaignId });
    expect(report.campaign.id).toBe(campaignId);
    const lines = (
      await drain(exportCampaign({ actor: SYSTEM_ACTOR.cli, campaignId, what: "labels", format: "jsonl" }))
    )
      .trim()
      .split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ campaign: report.campaign.name });
  });

  it("creates tokens for anyone; a person only for themselves", async () => {
    const [owner, other] = [await makeUser("ADMIN"), await makeUser("ANNOTATOR")];
    await expect(createApiToken({ actor: SYSTEM_ACTOR.cli, userId: other.id, name: "cli" })).resolves.toMatchObject({
      row: { name: "cli" },
    });
    await expect(createApiToken({ actor: owner, userId: owner.id, name: "mine" })).resolves.toMatchObject({
      row: { name: "mine" },
    });
    await expect(createApiToken({ actor: owner, userId: other.id, name: "theirs" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});
