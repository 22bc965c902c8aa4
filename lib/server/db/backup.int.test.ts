// Backup and restore: dump the test database, restore into a fresh database on the same server,
// and the campaign report computed on the copy is identical.
import { PassThrough, Readable } from "node:stream";

import { describe, expect, it } from "vitest";

import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { restoreBackup, writeBackup } from "./backup";
import { createCampaign } from "./campaigns";
import { disconnectPrisma, prisma } from "./client";
import { importRecords } from "./imports";
import { applyMigrations } from "./migrate";
import { closePgPool } from "./pool";
import { submitAnnotation } from "./queue";
import { getCampaignReport } from "./reports";

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
    const records = [0, 1, 2].map((index) => makeRecord(`b${index}_${dataset.replaceAll("-", "_")}`, { note: "kept\nacross\tlines \\ and quotes \"", index }));
    await importRecords({ actor: admin, datasetName: dataset, source: chunks(toJsonl(records)), skipInvalid: false, origin: "api" });
    const campaign = await createCampaign({ actor: admin, input: { dataset, name: uniqueName("backup"), overlap: 1, agreementFraction: 0, blind: false, finalRule: "consensus", leaseMinutes: 30 } });
    const items = await prisma().campaignItem.findMany({ where: { campaignId: campaign.id }, orderBy: { position: "asc" }, select: { id: true } });
    for (const [index, item] of items.entries()) {
      await holdItem({ userId: annotator.id, itemId: item.id });
      await submitAnnotation({ actor: annotator, itemId: item.id, input: { valid: index !== 0, categories: index === 0 ? ["precision"] : [], note: index === 0 ? "float ==" : null, needsReview: false, activeMs: 12_000 } });
    }
    const original = await getCampaignReport({ actor: admin, campaignId: campaign.id });
    const sourceUrl = process.env.DATABASE_URL!;
    const backup = await collect((output) => writeBackup(sourceUrl, output));

    const target = new URL(sourceUrl);
    target.pathname = `/restore_${Date.now()}`;
    const admin_ = new (await import("pg")).default.Client({ connectionString: sourceUrl });
    await admin_.connect();
    await admin_.query(`CREATE DATABASE "${target.pathname.slice(1)}"`);
    try {
      await applyMigrations(target.toString());
      const counts = await restoreBackup(target.toString(), Readable.from([backup]));
      expect(counts.Annotation).toBeGreaterThanOrEqual(3);
      await disconnectPrisma();
      await closePgPool();
      process.env.DATABASE_URL = target.toString();
      const restored = await getCampaignReport({ actor: admin, campaignId: campaign.id });
      expect(restored).toEqual(original);
      const record = await prisma().record.findFirstOrThrow({ where: { dataset: { name: dataset } }, orderBy: { id: "asc" }, select: { extra: true } });
      expect((record.extra as { note: string }).note).toBe("kept\nacross\tlines \\ and quotes \"");
      // A second restore into the same (now full) database is refused and changes nothing.
      await expect(restoreBackup(target.toString(), Readable.from([backup]))).rejects.toThrow(/not empty/);
    } finally {
      await disconnectPrisma();
      await closePgPool();
      process.env.DATABASE_URL = sourceUrl;
      await admin_.query(`DROP DATABASE IF EXISTS "${target.pathname.slice(1)}" WITH (FORCE)`);
      await admin_.end();
    }
  });

  it("refuses a file that is not a backup", async () => {
    const { gzipSync } = await import("node:zlib");
    await expect(restoreBackup(process.env.DATABASE_URL!, Readable.from([gzipSync("hello\n")]))).rejects.toThrow(/not a Verity backup/);
  });
});
