// The four solver routes over REST, each answer parsed with its catalog response schema: the import
// (201), the run's progress, pass@1 per model and language, and the page of records with k of n.
import { describe, expect, it } from "vitest";

import { GET as getResults, POST as postSolutions } from "@/app/api/v1/datasets/[name]/solutions/route";
import { GET as getRecordSolvers } from "@/app/api/v1/datasets/[name]/solutions/records/route";
import { GET as getSolutionRun } from "@/app/api/v1/solution-runs/[id]/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

describe("solver routes", () => {
  it("answer in the shapes the catalog describes", async () => {
    const admin = await makeUser("ADMIN");
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "solvers" })).token;
    const dataset = uniqueName("solvers-api");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([makeRecord("api-a"), makeRecord("api-b")])),
      skipInvalid: false,
      origin: "api",
    });
    const rows = await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      orderBy: { line: "asc" },
      select: { id: true, key: true },
    });
    const headers = { authorization: `Bearer ${token}` };
    const params = { params: Promise.resolve({ name: dataset }) };
    const file = [
      JSON.stringify({ key: rows[0].key, model: "m-right", code: "def add_api_a(a, b):\n    return a + b\n" }),
      JSON.stringify({ key: rows[1].key, model: "m-right", code: "def add_api_b(a, b):\n    return a - b\n" }),
    ].join("\n");
    const imported = await postSolutions(
      new Request(`http://localhost/api/v1/datasets/${dataset}/solutions`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-ndjson" },
        body: file,
      }),
      params,
    );
    expect(imported.status).toBe(201);
    const summary = (await readResponse(imported, "POST", "/datasets/{name}/solutions")) as {
      batchId: string;
      imported: number;
    };
    expect(summary).toMatchObject({ imported: 2, toRun: 2, models: ["m-right"] });

    const run = await getSolutionRun(
      new Request(`http://localhost/api/v1/solution-runs/${summary.batchId}`, { headers }),
      { params: Promise.resolve({ id: summary.batchId }) },
    );
    expect(run.status).toBe(200);
    expect(await readResponse(run, "GET", "/solution-runs/{id}")).toMatchObject({ batchId: summary.batchId });

    // The runs' results, as the workers store them: the first solution passes, the second fails.
    for (const [row, passed] of [
      [rows[0], true],
      [rows[1], false],
    ] as const)
      await prisma().solution.updateMany({
        where: { recordId: row.id },
        data: { passed, outcome: passed ? "PASSED" : "RUNTIME_ERROR", ranAt: new Date() },
      });
    const results = await getResults(
      new Request(`http://localhost/api/v1/datasets/${dataset}/solutions`, { headers }),
      params,
    );
    expect(results.status).toBe(200);
    const figures = (await readResponse(results, "GET", "/datasets/{name}/solutions")) as {
      passAtOne: { model: string; attempted: number; solved: number }[];
      latestRun: { batchId: string } | null;
    };
    expect(figures.passAtOne.map((row) => [row.model, row.attempted, row.solved])).toEqual([["m-right", 2, 1]]);
    expect(figures.latestRun?.batchId).toBe(summary.batchId);

    const page = await getRecordSolvers(
      new Request(`http://localhost/api/v1/datasets/${dataset}/solutions/records?unsolved=1`, { headers }),
      params,
    );
    expect(page.status).toBe(200);
    const unsolved = (await readResponse(page, "GET", "/datasets/{name}/solutions/records")) as {
      rows: { recordId: number; solvedBy: string[]; triedBy: string[] }[];
    };
    expect(unsolved.rows).toEqual([
      expect.objectContaining({ recordId: rows[1].id, solvedBy: [], triedBy: ["m-right"] }),
    ]);
  });
});
