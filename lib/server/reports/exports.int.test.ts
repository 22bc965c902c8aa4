// The exports cell by cell against what the test itself planted: one row per annotation and one per
// item, in CSV and JSONL; booleans written as true/false with empty only for unknown; file names.
import { spawnSync } from "node:child_process";

import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";

import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { exportCampaign } from "@/lib/server/reports/exports";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { adjudicateItem } from "@/lib/server/review/review";

type Label = { valid: boolean; categories: string[]; note: string | null; activeMs: number };
type Plan = {
  critic: boolean | null;
  executable: boolean | null;
  labels: [Label, Label];
  adjudication?: { valid: boolean; reason: string };
  final: "valid" | "invalid";
  decidedBy: string;
};

const bad = (categories: string[], note: string, activeMs: number): Label => ({
  valid: false,
  categories,
  note,
  activeMs,
});
const good = (activeMs: number): Label => ({ valid: true, categories: [], note: null, activeMs });
const PLAN: Plan[] = [
  {
    critic: false,
    executable: false,
    labels: [bad(["wrong-output", "style"], "expects 4, gets 3", 61_000), good(5_000)],
    final: "invalid",
    decidedBy: "strict",
  },
  { critic: null, executable: null, labels: [good(12_500), good(3_000)], final: "valid", decidedBy: "unanimous" },
  {
    critic: true,
    executable: true,
    labels: [good(2_000), bad(["style"], "odd names", 9_000)],
    adjudication: { valid: true, reason: "style does not invalidate" },
    final: "valid",
    decidedBy: "adjudication",
  },
];
const CATEGORIES = [
  { key: "wrong-output", label: "Wrong output", description: "", invalidating: true, criticRule: null },
  { key: "style", label: "Style", description: "", invalidating: false, criticRule: null },
];

let admin: Actor;
let annotators: Actor[];
let campaignId: string;
let campaignName: string;
let keys: string[];

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  const reviewer = await makeUser("REVIEWER");
  annotators = [await makeUser("ANNOTATOR", ["python"]), await makeUser("ANNOTATOR", ["python"])];
  const dataset = uniqueName("exports");
  const records = PLAN.map((plan, index) =>
    makeRecord(`e${index}_${dataset.replaceAll("-", "_")}`, {
      index,
      ...(plan.critic === null
        ? {}
        : {
            critic_result: {
              summary: { overall_pass: plan.critic, failed_rules: plan.critic ? [] : ["Other Issues"], key_points: [] },
            },
          }),
    }),
  );
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  campaignName = uniqueName("exports");
  campaignId = (
    await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: campaignName,
        overlap: 2,
        agreementFraction: 0,
        blind: true,
        finalRule: "strict",
        leaseMinutes: 30,
        categories: CATEGORIES,
      },
    })
  ).id;
  const items = await prisma().campaignItem.findMany({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { id: true, record: { select: { id: true, key: true, extra: true } } },
  });
  keys = [];
  for (const item of items) {
    const index = (item.record.extra as { index: number }).index;
    keys[index] = item.record.key;
    const plan = PLAN[index];
    await prisma().record.update({ where: { id: item.record.id }, data: { executableValid: plan.executable } });
    for (const [who, label] of plan.labels.entries()) {
      await holdItem({ userId: annotators[who].id, itemId: item.id });
      await submitAnnotation({ actor: annotators[who], itemId: item.id, input: { ...label, needsReview: false } });
    }
    if (plan.adjudication)
      await adjudicateItem({
        actor: reviewer,
        itemId: item.id,
        input: { valid: plan.adjudication.valid, categories: [], reason: plan.adjudication.reason },
      });
  }
});

async function collect(what: "labels" | "annotations", format: "csv" | "jsonl"): Promise<string> {
  let text = "";
  for await (const chunk of exportCampaign({ actor: admin, campaignId, what, format })) text += chunk;
  return text;
}

const csvRows = (text: string) => parse(text, { columns: true }) as Record<string, string>[];
const bool = (value: boolean | null) => (value === null ? "" : String(value));

describe("labels export, one row per annotation", () => {
  it("has every annotation with its annotator, verdict, each category, note, pre-reveal label and time, in CSV and JSONL", async () => {
    const rows = csvRows(await collect("annotations", "csv"));
    const json = (await collect("annotations", "jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(6);
    expect(json).toHaveLength(6);
    for (const [index, plan] of PLAN.entries()) {
      for (const [who, label] of plan.labels.entries()) {
        const annotator = annotators[who].email;
        const row = rows.find((candidate) => candidate.record_key === keys[index] && candidate.annotator === annotator);
        expect(row, `${keys[index]} by ${annotator}`).toMatchObject({
          campaign: campaignName,
          language: "python",
          label: label.valid ? "valid" : "invalid",
          "category:wrong-output": String(label.categories.includes("wrong-output")),
          "category:style": String(label.categories.includes("style")),
          note: label.note ?? "",
          // Blind campaign: each first label was given before the critic was shown.
          pre_reveal_label: label.valid ? "valid" : "invalid",
          active_seconds: String(label.activeMs / 1000),
          revision: "1",
          revised_at: "",
        });
        expect(Date.parse(row!.created_at)).not.toBeNaN();
        const line = json.find(
          (candidate) => candidate.record_key === keys[index] && candidate.annotator === annotator,
        );
        expect(line).toMatchObject({
          label: label.valid ? "valid" : "invalid",
          categories: label.categories,
          note: label.note,
          pre_reveal_label: label.valid ? "valid" : "invalid",
          active_seconds: label.activeMs / 1000,
          revised_at: null,
        });
      }
    }
  });
});

describe("labels export, one row per item", () => {
  it("has the final label, the rule, how it was resolved and the adjudication reason, with critic and executable as true/false", async () => {
    const text = await collect("labels", "csv");
    const rows = csvRows(text);
    const json = (await collect("labels", "jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(PLAN.length);
    expect(Object.keys(rows[0])).not.toContain("annotator_labels");
    for (const [index, plan] of PLAN.entries()) {
      const row = rows.find((candidate) => candidate.record_key === keys[index]);
      expect(row).toMatchObject({
        final_label: plan.final,
        rule: "strict",
        decided_by: plan.decidedBy,
        adjudication_reason: plan.adjudication?.reason ?? "",
        labels: "2",
        valid_labels: String(plan.labels.filter((label) => label.valid).length),
        critic_pass: bool(plan.critic),
        executable_valid: bool(plan.executable),
      });
      const line = json.find((candidate) => candidate.record_key === keys[index]);
      expect(line).toMatchObject({
        final_label: plan.final,
        rule: "strict",
        decided_by: plan.decidedBy,
        adjudication_reason: plan.adjudication?.reason ?? null,
        critic_pass: plan.critic,
        executable_valid: plan.executable,
      });
    }
    // A critic fail and an unknown critic no longer look alike.
    expect(rows.find((row) => row.record_key === keys[0])!.critic_pass).toBe("false");
    expect(rows.find((row) => row.record_key === keys[1])!.critic_pass).toBe("");
  });
});

describe("download names", () => {
  it("names every download after the campaign or dataset and the date", async () => {
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "downloads" })).token;
    const today = new Date().toISOString().slice(0, 10);
    const safe = campaignName.replace(/[^\w.-]+/g, "_");
    const get = async (
      module: Promise<{ GET: (request: Request, context: never) => Promise<Response> }>,
      url: string,
      params: Record<string, string>,
    ) =>
      (await module).GET(new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${token}` } }), {
        params: Promise.resolve(params),
      } as never);
    const report = import("@/app/api/v1/campaigns/[id]/report/route");
    const exported = import("@/app/api/v1/campaigns/[id]/export/route");
    for (const format of ["json", "csv", "md"]) {
      const response = await get(report, `/api/v1/campaigns/${campaignId}/report?format=${format}`, { id: campaignId });
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="${safe}-report-${today}.${format}"`,
      );
      // The JSON form is the catalog's schema; CSV and Markdown are described in prose.
      if (format === "json")
        expect(await readResponse(response, "GET", "/campaigns/{id}/report")).toMatchObject({
          campaign: { id: campaignId },
        });
    }
    for (const [what, format] of [
      ["labels", "csv"],
      ["annotations", "jsonl"],
      ["verified", "jsonl"],
    ]) {
      const response = await get(exported, `/api/v1/campaigns/${campaignId}/export?what=${what}&format=${format}`, {
        id: campaignId,
      });
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="${safe}-${what}-${today}.${format}"`,
      );
      if (format === "jsonl")
        expect(((await readResponse(response, "GET", "/campaigns/{id}/export")) as unknown[]).length).toBeGreaterThan(
          0,
        );
      else await response.text();
    }
    const dataset = (
      await prisma().campaign.findUniqueOrThrow({
        where: { id: campaignId },
        select: { dataset: { select: { name: true } } },
      })
    ).dataset.name;
    const datasetReport = await get(
      import("@/app/api/v1/datasets/[name]/report/route"),
      `/api/v1/datasets/${dataset}/report?format=md`,
      { name: dataset },
    );
    expect(datasetReport.status).toBe(200);
    expect(datasetReport.headers.get("content-disposition")).toBe(
      `attachment; filename="${dataset.replace(/[^\w.-]+/g, "_")}-report-${today}.md"`,
    );
    expect(await datasetReport.text()).toContain("strongest resolved label");
    const datasetJson = await get(
      import("@/app/api/v1/datasets/[name]/report/route"),
      `/api/v1/datasets/${dataset}/report`,
      { name: dataset },
    );
    expect(await readResponse(datasetJson, "GET", "/datasets/{name}/report")).toMatchObject({
      campaigns: expect.arrayContaining([expect.objectContaining({ id: campaignId })]),
      rule: expect.stringContaining("strongest resolved label"),
    });
  });
});

describe("verity report --dataset", () => {
  it("prints the dataset report with the cross-campaign rule under the table", async () => {
    const dataset = (
      await prisma().campaign.findUniqueOrThrow({
        where: { id: campaignId },
        select: { dataset: { select: { name: true } } },
      })
    ).dataset.name;
    const result = spawnSync(process.execPath, ["scripts/verity.mjs", "report", "--dataset", dataset], {
      env: process.env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    // Three Python records, two finally valid (the planted labels above).
    expect(result.stdout).toContain("| Python | 66.7% [");
    expect(result.stdout).toContain("| n = 3 | 50.0% (n = 2) | 50.0% (n = 2) |");
    expect(result.stdout).toContain("strongest resolved label");
    const missing = spawnSync(
      process.execPath,
      ["scripts/verity.mjs", "report", "--dataset", "no-such-dataset-anywhere"],
      { env: process.env, encoding: "utf8", timeout: 60_000 },
    );
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('No dataset named "no-such-dataset-anywhere"');
  });
});
