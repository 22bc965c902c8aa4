// A dataset's harness choice, end to end: a HumanEval-X Java record (imported through the shipped
// mapping) verified in a real batch fails under AutoCodeBench's rules; after PATCH
// /datasets/{name}/harness chooses java-main, the next batch passes it. A profile for another
// language, or an unknown one, is a 422 naming the language.
import { beforeAll, describe, expect, it } from "vitest";

import { PATCH as patchHarness } from "@/app/api/v1/datasets/[name]/harness/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords, resolveImportMapping } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";
import { startVerification, verifyRecord } from "@/lib/server/verification/jobs";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeUser, uniqueName } from "@/lib/testing/factories";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

const JAVA_RECORD = {
  task_id: "Java/7",
  prompt: "import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    public int twice(int n) {\n",
  canonical_solution: "        return n * 2;\n    }\n}\n",
  test:
    "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n" +
    "        if (s.twice(4) != 8) {\n            throw new AssertionError();\n        }\n    }\n}\n",
};

let token: string;
let dataset: string;

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "harness" })).token;
  dataset = uniqueName("harness-java");
  const summary = await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(JSON.stringify(JAVA_RECORD)),
    skipInvalid: false,
    origin: "api",
    mapping: resolveImportMapping("humaneval-x"),
  });
  expect(summary.byLanguage).toEqual({ java: 1 });
});

function patch(body: unknown) {
  const request = new Request(`http://localhost/api/v1/datasets/${dataset}/harness`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return patchHarness(request, { params: Promise.resolve({ name: dataset }) });
}

async function verifyOnce(): Promise<string | null> {
  const { batchId } = await startVerification({ actor: SYSTEM_ACTOR.cli, datasetName: dataset, force: true });
  const record = await prisma().record.findFirstOrThrow({
    where: { dataset: { name: dataset } },
    select: { id: true },
  });
  await verifyRecord({ batchId, recordId: record.id });
  const result = await prisma().runResult.findFirstOrThrow({
    where: { batchId, recordId: record.id, kind: "FULL" },
    select: { outcome: true },
  });
  return result.outcome;
}

describe("a dataset's harness profile", () => {
  it("refuses an unknown profile or one for another language, naming the language", async () => {
    const wrongLanguage = await patch({ harness: { go: "java-main" } });
    expect(wrongLanguage.status).toBe(422);
    expect(JSON.stringify(await wrongLanguage.json())).toContain("java-main runs java, not go");
    expect((await patch({ harness: { java: "junit-9" } })).status).toBe(422);
    const stored = await prisma().dataset.findUniqueOrThrow({ where: { name: dataset }, select: { harness: true } });
    expect(stored.harness).toEqual({});
  });

  it.skipIf(!hasBwrap)(
    "batch verification runs the dataset's choice: java-main passes what the default fails",
    async () => {
      expect(await verifyOnce()).toBe("COMPILATION_ERROR");
      const response = await patch({ harness: { java: "java-main" } });
      expect(await readResponse(response, "PATCH", "/datasets/{name}/harness")).toEqual({
        dataset,
        harness: { java: "java-main" },
      });
      expect(await verifyOnce()).toBe("PASSED");
      const audit = await prisma().auditEvent.findFirst({
        where: { action: "dataset.harness" },
        orderBy: { createdAt: "desc" },
      });
      expect(audit?.after).toEqual({ java: "java-main" });
    },
    300_000,
  );
});
