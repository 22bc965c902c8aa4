// Backup and restore: dump the test database, restore into a fresh database on the same server,
// and the campaign report computed on the copy is identical.
import { randomBytes } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";

import { describe, expect, it } from "vitest";

import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { withFreshDatabase } from "@/lib/testing/fresh-database";

import { restoreBackup, writeBackup } from "./backup";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { disconnectPrisma, prisma } from "./client";
import { importRecords } from "@/lib/server/imports/imports";
import { applyMigrations } from "./migrate";
import { closePgPool } from "./pool";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { setEnv } from "@/lib/testing/env";

async function collect(write: (output: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const output = new PassThrough();
  const parts: Buffer[] = [];
  output.on("data", (chunk: Buffer) => parts.push(chunk));
  await write(output);
  return Buffer.concat(parts);
}

describe("backup and restore", () => {
  it("restores into a fresh database with an identical report", async () => {
    const admin = await makeUser("ADMIN");
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const dataset = uniqueName("backup");
    const records = [0, 1, 2].map((index) =>
      makeRecord(`b${index}_${dataset.replaceAll("-", "_")}`, { note: 'kept\nacross\tlines \\ and quotes "', index }),
    );
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("backup"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const items = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    for (const [index, item] of items.entries()) {
      await holdItem({ userId: annotator.id, itemId: item.id });
      await submitAnnotation({
        actor: annotator,
        itemId: item.id,
        input: {
          valid: index !== 0,
          categories: index === 0 ? ["precision"] : [],
          note: index === 0 ? "float ==" : null,
          needsReview: false,
          activeMs: 12_000,
        },
      });
    }
    const original = await getCampaignReport({ actor: admin, campaignId: campaign.id });
    const sourceUrl = process.env.DATABASE_URL!;
    const backup = await collect((output) => writeBackup(sourceUrl, output));

    await withFreshDatabase("restore", async (target) => {
      try {
        await applyMigrations(target);
        const counts = await restoreBackup(target, Readable.from([backup]));
        expect(counts.Annotation).toBeGreaterThanOrEqual(3);
        await disconnectPrisma();
        await closePgPool();
        setEnv({ DATABASE_URL: target });
        const restored = await getCampaignReport({ actor: admin, campaignId: campaign.id });
        expect(restored).toEqual(original);
        const record = await prisma().record.findFirstOrThrow({
          where: { dataset: { name: dataset } },
          orderBy: { id: "asc" },
          select: { extra: true },
        });
        expect((record.extra as { note: string }).note).toBe('kept\nacross\tlines \\ and quotes "');
        // A second restore into the same (now full) database is refused and changes nothing.
        await expect(restoreBackup(target, Readable.from([backup]))).rejects.toThrow(/not empty/);
      } finally {
        await disconnectPrisma();
        await closePgPool();
        setEnv({ DATABASE_URL: sourceUrl });
      }
    });
  });

  it("fails at once on a truncated backup and leaves the target database empty, with no transaction open", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("truncated");
    // Incompressible text, so that cutting the gzip in half lands inside the table rows.
    const records = Array.from({ length: 40 }, (_, index) =>
      makeRecord(`t${index}_${dataset.replaceAll("-", "_")}`, { noise: randomBytes(2000).toString("hex") }),
    );
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    const backup = await collect((output) => writeBackup(process.env.DATABASE_URL!, output));
    await withFreshDatabase("truncated", async (target) => {
      await applyMigrations(target);
      const outcome = await Promise.race([
        restoreBackup(target, Readable.from([backup.subarray(0, Math.floor(backup.length / 2))])).then(
          () => "restored",
          (error: unknown) => String(error),
        ),
        sleep(20_000).then(() => "still running after 20 s"),
      ]);
      expect(outcome).toMatch(/damaged or cut short/);
      const check = new pg.Client({ connectionString: target });
      await check.connect();
      try {
        // The restore ran as the same role, so its sessions' states are visible to this one.
        const { rows } = await check.query<{ state: string }>(
          "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        );
        expect(rows.filter((row) => row.state?.startsWith("idle in transaction"))).toEqual([]);
        expect((await check.query(`SELECT count(*)::int AS n FROM "Record"`)).rows).toEqual([{ n: 0 }]);
      } finally {
        await check.end();
      }
    });
  });

  it("refuses a file that is not a backup", async () => {
    const { gzipSync } = await import("node:zlib");
    await expect(restoreBackup(process.env.DATABASE_URL!, Readable.from([gzipSync("hello\n")]))).rejects.toThrow(
      /not a Verity backup/,
    );
  });
});
