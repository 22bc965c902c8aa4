// `verity backup` and `verity export` as a user runs them: what they write, and how they fail.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { importRecords } from "@/lib/server/imports/imports";
import { applyMigrations } from "@/lib/server/db/migrate";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { withFreshDatabase } from "@/lib/testing/fresh-database";

const folder = mkdtempSync(join(tmpdir(), "verity-cli-"));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function verity(args: string[], databaseUrl = process.env.DATABASE_URL) {
  const result = spawnSync(process.execPath, ["scripts/verity.mjs", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("verity backup and export", () => {
  it("writes the backup readable by its owner only", () => {
    const out = join(folder, "verity.backup.gz");
    const result = verity(["backup", "--out", out]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it("says in one line that the output folder is missing, for export and backup", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("cli");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([makeRecord(`c0_${dataset.replaceAll("-", "_")}`)])),
      skipInvalid: false,
      origin: "api",
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("cli"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const missing = join(folder, "no-such-folder");
    for (const args of [
      ["export", "--campaign", campaign.name, "--what", "labels", "--out", join(missing, "labels.jsonl")],
      ["backup", "--out", join(missing, "verity.backup.gz")],
    ]) {
      const result = verity(args);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split("\n")).toEqual([`error: no such folder: ${missing}`]);
    }
    expect(existsSync(missing)).toBe(false);
  });

  it("stops a restore of a truncated backup at once, in one line, with nothing restored", async () => {
    const out = join(folder, "whole.backup.gz");
    expect(verity(["backup", "--out", out]).status).toBe(0);
    const truncated = join(folder, "truncated.backup.gz");
    const whole = readFileSync(out);
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    await withFreshDatabase("cli_restore", async (target) => {
      await applyMigrations(target);
      const result = verity(["restore", truncated], target);
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^error: The backup file is damaged or cut short .* Nothing was restored\.$/),
      ]);
    });
  });
});
