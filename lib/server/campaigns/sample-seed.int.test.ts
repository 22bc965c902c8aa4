// A campaign's seed is hidden from annotators, but a guessable one (`s1`, docs/features.md's `42`) could
// be found by trying seeds against the items an annotator is served; with it the whole sample, and
// so every gold record (anything served outside it), would follow. The sample is drawn under a
// keyed hash of the seed: the same seed still draws the same sample on this install, and a larger
// size still adds what a campaign created that size would hold, after the server secret changed too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { setEnv } from "@/lib/testing/env";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "./create-campaign";
import { extendCampaign } from "./extend-campaign";

const RECORDS = 30;
const previousSecret = process.env.NEXTAUTH_SECRET;
let admin: Actor;
let dataset: string;

beforeAll(async () => {
  setEnv({ NEXTAUTH_SECRET: "sample-seed-test-secret-one" });
  admin = await makeUser("ADMIN");
  dataset = uniqueName("seeded");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl(Array.from({ length: RECORDS }, (_, index) => makeRecord(`sd${index}_${dataset.replaceAll("-", "_")}`))),
    ),
    skipInvalid: false,
    origin: "api",
  });
});

afterAll(() => setEnv({ NEXTAUTH_SECRET: previousSecret }));

const input = (seed: string, perLanguage: number) => ({
  dataset,
  name: uniqueName("seeded"),
  perLanguage,
  seed,
  overlap: 1,
  agreementFraction: 0,
  blind: false,
  finalRule: "consensus" as const,
  leaseMinutes: 30,
});

async function sampleOf(campaignId: string): Promise<number[]> {
  const items = await prisma().campaignItem.findMany({ where: { campaignId }, select: { recordId: true } });
  return items.map((item) => item.recordId).sort((a, b) => a - b);
}

/** The sample an annotator who guessed the seed would compute from record keys alone. */
async function sampleFromSeedAlone(seed: string, perLanguage: number): Promise<number[]> {
  const rows = await prisma().$queryRaw<{ id: number }[]>`
    SELECT id FROM (
      SELECT r.id, row_number() OVER (PARTITION BY r.language ORDER BY md5(${seed} || ':sample:' || r.key)) AS rank
      FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = ${dataset}) ranked
    WHERE rank <= ${perLanguage} ORDER BY id`;
  return rows.map((row) => row.id);
}

describe("a campaign's sample", () => {
  it("cannot be computed from a guessed seed and the record keys", async () => {
    for (const seed of ["42", "s1"]) {
      const campaign = await createCampaign({ actor: admin, input: input(seed, 8) });
      const sample = await sampleOf(campaign.id);
      expect(sample).toHaveLength(8);
      expect(sample, seed).not.toEqual(await sampleFromSeedAlone(seed, 8));
    }
  });

  it("is the same for the same seed on this install, and shows the seed as typed", async () => {
    const first = await createCampaign({ actor: admin, input: input("42", 8) });
    const second = await createCampaign({ actor: admin, input: input("42", 8) });
    expect(first.seed).toBe("42");
    expect(await sampleOf(first.id)).toEqual(await sampleOf(second.id));
    expect(await sampleOf(first.id)).not.toEqual(
      await sampleOf((await createCampaign({ actor: admin, input: input("43", 8) })).id),
    );
  });

  it("grows as a larger campaign would have been drawn, even after the server secret changed", async () => {
    const small = await createCampaign({ actor: admin, input: input("grow-me", 5) });
    const large = await createCampaign({ actor: admin, input: input("grow-me", 12) });
    setEnv({ NEXTAUTH_SECRET: "sample-seed-test-secret-two" });
    try {
      await extendCampaign({ actor: admin, campaignId: small.id, input: { perLanguage: 12 } });
      expect(await sampleOf(small.id)).toEqual(await sampleOf(large.id));
    } finally {
      setEnv({ NEXTAUTH_SECRET: "sample-seed-test-secret-one" });
    }
  });
});
