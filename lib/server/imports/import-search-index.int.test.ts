// An import leaves the question search's trigram index merged: nothing waits in its pending list,
// which every search would otherwise scan entry by entry until autovacuum came round.
import { describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

/** Merges what is pending now; returns how many pending-list pages there were (0: nothing was waiting). */
async function mergePendingPages(): Promise<number> {
  const rows = await prisma().$queryRaw<
    { pages: bigint }[]
  >`SELECT gin_clean_pending_list('"Record_question_idx"'::regclass) AS pages`;
  return Number(rows[0].pages);
}

describe("the question index after an import", () => {
  it("has an empty pending list once the import has committed", async () => {
    await mergePendingPages();
    const admin = await makeUser("ADMIN");
    const records = Array.from({ length: 200 }, (_, index) => makeRecord(`pending${index}`));
    const summary = await importRecords({
      actor: admin,
      datasetName: uniqueName("pending"),
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    expect(summary.imported).toBe(200);
    expect(await mergePendingPages()).toBe(0);
  });
});
