// How a refused gold file is reported: every problem of a line once, in that line's one message, and
// a summary that repeats no line (the dataset page shows the summary above the listed lines).
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importGoldAnswers } from "@/lib/server/gold/gold";
import { importRecords } from "@/lib/server/imports/imports";

let admin: Actor;
let dataset = "";
let recordId = 0;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  dataset = uniqueName("gold-errors");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([makeRecord(dataset.replaceAll("-", "_"))])),
    skipInvalid: false,
    origin: "api",
  });
  await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("Gold errors"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
      categories: [{ key: "team-rule", label: "Team rule", description: "", invalidating: true, criticRule: null }],
    },
  });
  recordId = (await prisma().record.findFirstOrThrow({ where: { dataset: { name: dataset } } })).id;
});

async function refusal(text: string) {
  const error = (await importGoldAnswers({ actor: admin, datasetName: dataset, text }).catch((e: unknown) => e)) as {
    code: string;
    message: string;
    fieldErrors: { file: string[] };
  };
  expect(error.code).toBe("INVALID_INPUT");
  return { message: error.message, lines: error.fieldErrors.file };
}

describe("gold file errors", () => {
  it("reports an unknown id and an unknown category on the same line, in one message for that line", async () => {
    const { message, lines } = await refusal(
      `{"id": 2000000001, "verdict": "invalid", "categories": ["no-such-category"]}\n{"id": 2000000002, "verdict": "valid"}\n`,
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^line 1: /);
    expect(lines[0]).toContain("holds no record with id 2000000001");
    expect(lines[0]).toContain("no-such-category");
    expect(lines[1]).toMatch(/^line 2: .*holds no record with id 2000000002/);
    // The summary names no line, so a page that shows it above the list prints each line once.
    expect(message).toBe("Nothing imported: 2 bad lines.");
    expect(message).not.toContain("2000000001");
  });

  it("reports every problem of a line: a bad verdict, a malformed category and a missing record together", async () => {
    const { lines } = await refusal(`{"id": 2000000003, "verdict": "maybe", "categories": ["Bad Key"]}\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/valid" or "invalid/);
    expect(lines[0]).toMatch(/categories/);
    expect(lines[0]).toContain("holds no record with id 2000000003");
  });

  it("accepts the categories of the default taxonomy and of the dataset's campaigns", async () => {
    const summary = await importGoldAnswers({
      actor: admin,
      datasetName: dataset,
      text: JSON.stringify({ id: recordId, verdict: "invalid", categories: ["name-mismatch", "team-rule"] }),
    });
    expect(summary).toEqual({ dataset, imported: 1 });
  });
});
