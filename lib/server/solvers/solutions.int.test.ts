// Solver results: a file of model outputs is imported all or nothing (bad lines named, nothing
// written), a raw reply's code is taken out as AutoCodeBench's evaluation takes it, and after the
// runs (real sandbox, through the CLI and its workers) k of n per record and pass@1 per model and
// language are what a hand count of the planted right and wrong solutions gives.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { importSolutions } from "@/lib/server/solvers/import-solutions";
import { recordSolversPage } from "@/lib/server/solvers/record-solvers-page";
import { solverCounts } from "@/lib/server/solvers/solver-counts";
import { solverEvidenceOf } from "@/lib/server/solvers/solver-evidence-of";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

const hasBwrap = !skipWithoutSandbox(existsSync("/usr/bin/bwrap") ? null : "bubblewrap is not installed");

async function makeDataset(records: Record<string, unknown>[]) {
  const admin = await makeUser("ADMIN");
  const dataset = uniqueName("solvers");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  const rows = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    orderBy: { line: "asc" },
    select: { id: true, key: true, language: true },
  });
  return { admin, dataset, rows };
}

function refusal(error: unknown): { code: string; message: string; lines: string[] } {
  const appError = error as { code: string; message: string; fieldErrors?: { file?: string[] } };
  return { code: appError.code, message: appError.message, lines: appError.fieldErrors?.file ?? [] };
}

describe("solver results import", () => {
  it("refuses a file with bad lines, naming each, and writes nothing", async () => {
    const { admin, dataset, rows } = await makeDataset([makeRecord("bad-a"), makeRecord("bad-b")]);
    const file = [
      JSON.stringify({ key: rows[0].key, model: "m1", code: "def add_bad_a(a, b):\n    return a + b\n" }),
      "{not json",
      JSON.stringify({ key: rows[1].key, model: "m1" }),
      JSON.stringify({ key: "f".repeat(64), model: "m1", code: "x" }),
      JSON.stringify({ key: rows[0].key, model: "m1", output: "```python\nx\n```" }),
      JSON.stringify({ ...makeRecord("bad-b"), output: "```python\nx\n```" }),
    ].join("\n");
    const error = await importSolutions({
      actor: admin,
      datasetName: dataset,
      source: chunks(file),
      defaultModel: null,
      origin: "api",
    }).catch((caught: unknown) => caught);
    const { code, message, lines } = refusal(error);
    expect(code).toBe("INVALID_INPUT");
    expect(message).toBe("Nothing imported: 5 bad lines.");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^line 2: /);
    expect(lines[1]).toBe('line 3: Give the solution: "code", or the model\'s raw reply in "output".');
    expect(lines[2]).toBe(`line 4: ${dataset} holds no record with key ${"f".repeat(64)}.`);
    expect(lines[3]).toBe("line 5: The record has a solution from m1 already (line 1).");
    // An AutoCodeBench line without a model: --model names it.
    expect(lines[4]).toBe(
      'line 6: Name the model: a "model" field, or one model for the whole file (Model on the upload form, --model).',
    );
    expect(await prisma().solution.count({ where: { record: { dataset: { name: dataset } } } })).toBe(0);
    expect(await prisma().solutionBatch.count({ where: { dataset: { name: dataset } } })).toBe(0);
  });

  it("says a problem shared by many lines once, with their lines (no model named on 14 lines)", async () => {
    const records = Array.from({ length: 14 }, (_, index) => makeRecord(`unnamed-${index}`));
    const { admin, dataset, rows } = await makeDataset(records);
    const file = rows.map((row) => JSON.stringify({ key: row.key, code: "x = 1\n" })).join("\n");
    const error = await importSolutions({
      actor: admin,
      datasetName: dataset,
      source: chunks(file),
      defaultModel: null,
      origin: "api",
    }).catch((caught: unknown) => caught);
    const { message, lines } = refusal(error);
    expect(message).toBe("Nothing imported: 14 bad lines.");
    expect(lines).toEqual([
      'lines 1–14: Name the model: a "model" field, or one model for the whole file (Model on the upload form, --model).',
    ]);
  });

  it("stores the code a raw reply yields, and an AutoCodeBench result line lands on its record", async () => {
    const record = makeRecord("extract");
    const { admin, dataset, rows } = await makeDataset([record]);
    const reply = "Sure.\n```python\ndef add_extract(a, b):\n    return b + a\n```\nDone.";
    const summary = await importSolutions({
      actor: admin,
      datasetName: dataset,
      source: chunks(
        toJsonl([
          { ...record, output: reply },
          { key: rows[0].key, model: "prose", output: "No code, only words." },
          { key: rows[0].key, model: "empty", output: "" },
        ]),
      ),
      defaultModel: "acb-model",
      origin: "api",
    });
    expect(summary).toMatchObject({ imported: 3, withoutCode: 1, toRun: 2, models: ["acb-model", "empty", "prose"] });
    const stored = await prisma().solution.findMany({
      where: { recordId: rows[0].id },
      orderBy: { model: "asc" },
      select: { model: true, code: true, reply: true, outcome: true, passed: true },
    });
    expect(stored).toEqual([
      { model: "acb-model", code: "def add_extract(a, b):\n    return b + a", reply, outcome: null, passed: null },
      // Nothing to extract: not solved, never run.
      { model: "empty", code: "", reply: "", outcome: "NO_CODE", passed: false },
      // No fence: the reference drops the first line; a one-line reply stays as it is.
      { model: "prose", code: "No code, only words.", reply: "No code, only words.", outcome: null, passed: null },
    ]);
  });

  it.skipIf(!hasBwrap)(
    "runs every solution through the CLI's workers; k of n and pass@1 match a hand count (needs bubblewrap)",
    async () => {
      // Three Python records and one shell record; each model's solutions are planted right or wrong.
      const python = ["p1", "p2", "p3"].map((seed) => makeRecord(seed));
      const shell = {
        question: "Print the sum of two arguments.",
        canonical_solution: "add() { echo $(( $1 + $2 )); }\n",
        demo_test_func: '[ "$(add 1 2)" = "3" ] || { echo "failed"; exit 1; }\n',
        full_test_func: '[ "$(add -1 1)" = "0" ] || { echo "failed"; exit 1; }\n',
        language: "shell",
      };
      const { dataset, rows } = await makeDataset([...python, shell]);
      const right = (seed: string) => `def add_${seed}(a, b):\n    return a + b\n`;
      const wrong = (seed: string) => `def add_${seed}(a, b):\n    return a - b\n`;
      const [p1, p2, p3, sh] = rows;
      const lines = [
        // "alpha": right on p1, p2, p3 and the shell record → 4/4.
        { key: p1.key, model: "alpha", output: `Here:\n\`\`\`python\n${right("p1")}\`\`\`` },
        { key: p2.key, model: "alpha", code: right("p2") },
        { key: p3.key, model: "alpha", code: right("p3") },
        { key: sh.key, model: "alpha", code: shell.canonical_solution },
        // "beta": right on p1 only, wrong on p2 and p3, wrong on the shell record → python 1/3, shell 0/1.
        { key: p1.key, model: "beta", code: right("p1") },
        { key: p2.key, model: "beta", code: wrong("p2") },
        { key: p3.key, model: "beta", output: `\`\`\`python\n${wrong("p3")}\`\`\`` },
        { key: sh.key, model: "beta", code: "add() { echo 0; }\n" },
        // "gamma": only p3, whose reply holds no code → python 0/1.
        { key: p3.key, model: "gamma", output: "" },
      ];
      const folder = mkdtempSync(join(tmpdir(), "solutions-"));
      const file = join(folder, "outputs.jsonl");
      writeFileSync(file, toJsonl(lines));
      const child = spawn(
        process.execPath,
        ["scripts/verity.mjs", "solutions", "import", file, "--dataset", dataset, "--json"],
        { env: { ...process.env, VERITY_WORKER_CONCURRENCY: "2" }, stdio: ["ignore", "pipe", "inherit"] },
      );
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exitCode = await new Promise((resolve) => child.once("exit", resolve));
      expect(exitCode).toBe(0);
      const summary = JSON.parse(output.trim().split("\n").pop()!) as {
        imported: number;
        run: { status: string; passed: number; failed: number };
        passAtOne: {
          model: string;
          attempted: number;
          solved: number;
          passAtOne: number;
          byLanguage: Record<string, { attempted: number; solved: number; passAtOne: number }>;
        }[];
      };
      expect(summary.imported).toBe(9);
      // Passed: alpha ×4 + beta on p1 = 5; failed: beta ×3 + gamma's empty reply = 4.
      expect(summary.run).toMatchObject({ status: "SUCCEEDED", passed: 5, failed: 4 });
      const byModel = Object.fromEntries(summary.passAtOne.map((row) => [row.model, row]));
      expect(byModel.alpha).toMatchObject({ attempted: 4, solved: 4, passAtOne: 1 });
      expect(byModel.alpha.byLanguage).toEqual({
        python: { attempted: 3, solved: 3, passAtOne: 1 },
        shell: { attempted: 1, solved: 1, passAtOne: 1 },
      });
      expect(byModel.beta).toMatchObject({ attempted: 4, solved: 1, passAtOne: 0.25 });
      expect(byModel.beta.byLanguage.python).toEqual({ attempted: 3, solved: 1, passAtOne: 1 / 3 });
      expect(byModel.beta.byLanguage.shell).toEqual({ attempted: 1, solved: 0, passAtOne: 0 });
      expect(byModel.gamma).toMatchObject({ attempted: 1, solved: 0, passAtOne: 0 });

      const admin = await makeUser("ADMIN");
      expect(await solverCounts({ actor: admin, datasetName: dataset })).toHaveLength(5);
      // k of n per record: p1 2/2, p2 1/2, p3 1/3, shell 1/2.
      const page = await recordSolversPage({
        actor: admin,
        datasetName: dataset,
        unsolvedOnly: false,
        cursor: null,
        limit: 10,
      });
      expect(page.rows.map((row) => [row.solvedBy, row.triedBy])).toEqual([
        [
          ["alpha", "beta"],
          ["alpha", "beta"],
        ],
        [["alpha"], ["alpha", "beta"]],
        [["alpha"], ["alpha", "beta", "gamma"]],
        [["alpha"], ["alpha", "beta"]],
      ]);
      const evidence = await solverEvidenceOf({ actor: admin, recordIds: [p3.id] });
      expect(evidence.get(p3.id)).toEqual({
        solved: 1,
        total: 3,
        byModel: [
          { model: "alpha", solved: true },
          { model: "beta", solved: false },
          { model: "gamma", solved: false },
        ],
      });
      // Keyset pages of one: the same rows, in the same order.
      const seen: number[] = [];
      let cursor: number | null = null;
      do {
        const one: Awaited<ReturnType<typeof recordSolversPage>> = await recordSolversPage({
          actor: admin,
          datasetName: dataset,
          unsolvedOnly: false,
          cursor,
          limit: 1,
        });
        seen.push(...one.rows.map((row) => row.recordId));
        cursor = one.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(page.rows.map((row) => row.recordId));
      // Nobody fails every record here, so "solved by no model" is empty.
      expect(
        (await recordSolversPage({ actor: admin, datasetName: dataset, unsolvedOnly: true, cursor: null, limit: 10 }))
          .rows,
      ).toEqual([]);
    },
    240_000,
  );
});
