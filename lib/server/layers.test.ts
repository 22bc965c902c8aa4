// The layers, as the lint rule in eslint.config.mjs enforces them: only the feature modules' data
// files talk to PostgreSQL (Prisma, pg), only lib/server/workers/boss.ts to pg-boss, and data files
// never drive the sandbox, the job queue or an operation; audit rows are written by
// lib/server/audit/audit.ts only.
// Checked on snippets placed in each layer, and on the files that used to break the rules.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });
const LAYER_RULE_IDS = ["@typescript-eslint/no-restricted-imports", "no-restricted-syntax"];

/** The layer-rule messages ESLint gives `code` placed at `filePath`. */
async function layerErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  // A snippet that does not parse would pass every case.
  expect(result.messages.filter((message) => message.fatal)).toEqual([]);
  return result.messages
    .filter((message) => LAYER_RULE_IDS.includes(message.ruleId ?? ""))
    .map((message) => message.message);
}

const CASES: { code: string; file: string; allowed: boolean }[] = [
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/server/verification/jobs.ts", allowed: false },
  { code: 'import { prisma } from "../db/client";', file: "lib/server/verification/jobs.ts", allowed: false },
  { code: 'import { pgPool } from "@/lib/server/db/pool";', file: "scripts/commands/example.ts", allowed: false },
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/server/campaigns/example.ts", allowed: true },
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/server/sandbox/example.ts", allowed: false },
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/server/http.ts", allowed: false },
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/metrics/example.ts", allowed: false },
  {
    code: 'import { prisma } from "@/lib/server/db/client";',
    file: "lib/server/sandbox/probe-store.ts",
    allowed: true,
  },
  {
    code: 'import { disconnectPrisma } from "@/lib/server/db/client";',
    file: "scripts/commands/example.ts",
    allowed: true,
  },
  {
    code: 'import type { Prisma } from "@/lib/generated/prisma/client";',
    file: "lib/server/verification/jobs.ts",
    allowed: false,
  },
  {
    code: 'import type { Prisma } from "@/lib/generated/prisma/client";',
    file: "lib/server/campaigns/example.ts",
    allowed: true,
  },
  { code: 'import { PrismaPg } from "@prisma/adapter-pg";', file: "app/api/v1/example/route.ts", allowed: false },
  {
    code: 'import type { Role } from "@/lib/generated/prisma/enums";',
    file: "lib/server/auth/example.ts",
    allowed: true,
  },
  { code: 'import { Role } from "@/lib/generated/prisma/enums";', file: "components/example.tsx", allowed: false },
  { code: 'import pg from "pg";', file: "lib/server/runs/run-record.ts", allowed: false },
  // Operations are found from what they import (no list): these drive an endpoint or the queue.
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/server/critics/run.ts", allowed: false },
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "lib/server/solvers/jobs.ts", allowed: false },
  // One file per operation over queries.ts: data files, which query and never drive the sandbox.
  {
    code: 'import { prisma } from "@/lib/server/db/client";',
    file: "lib/server/campaigns/insert-campaign.ts",
    allowed: true,
  },
  // …until it queues work: creating a campaign queues its item draw (draw-queue.ts), so it calls
  // insertCampaign and never queries itself.
  {
    code: 'import { prisma } from "@/lib/server/db/client";',
    file: "lib/server/campaigns/create-campaign.ts",
    allowed: false,
  },
  {
    code: 'import { runInSandbox } from "@/lib/server/sandbox";',
    file: "lib/server/labelling/claim-next-item.ts",
    allowed: false,
  },
  { code: 'import pg from "pg";', file: "lib/server/campaigns/example.ts", allowed: true },
  { code: 'import pg from "pg";', file: "scripts/bench/example.ts", allowed: true },
  { code: 'import { prisma } from "@/lib/server/db/client";', file: "scripts/bench/example.ts", allowed: false },
  { code: 'import PgBoss from "pg-boss";', file: "lib/server/verification/jobs.ts", allowed: false },
  { code: 'import PgBoss from "pg-boss";', file: "lib/server/workers/boss.ts", allowed: true },
  {
    code: 'import { runInSandbox } from "@/lib/server/sandbox";',
    file: "lib/server/campaigns/example.ts",
    allowed: false,
  },
  {
    code: 'import type { SandboxResult } from "@/lib/server/sandbox";',
    file: "lib/server/campaigns/example.ts",
    allowed: true,
  },
  {
    code: 'import { keepHeadAndTail } from "@/lib/server/sandbox/output";',
    file: "lib/server/campaigns/example.ts",
    allowed: true,
  },
  {
    code: 'import { startVerification } from "@/lib/server/verification/jobs";',
    file: "lib/server/campaigns/example.ts",
    allowed: false,
  },
  {
    code: 'import { runRecord } from "@/lib/server/runs/run-record";',
    file: "lib/server/campaigns/example.ts",
    allowed: false,
  },
  {
    code: 'import { runInSandbox } from "@/lib/server/sandbox";',
    file: "lib/server/runs/run-record.ts",
    allowed: true,
  },
  {
    code: 'const { disconnectPrisma, prisma } = await import("@/lib/server/db/client");',
    file: "scripts/bench/example.ts",
    allowed: false,
  },
  {
    code: 'const { disconnectPrisma } = await import("@/lib/server/db/client");',
    file: "scripts/bench/example.ts",
    allowed: true,
  },
  { code: 'const pg = await import("pg");', file: "lib/server/verification/jobs.ts", allowed: false },
  {
    code: 'const { PrismaClient } = await import("@/lib/generated/prisma/client");',
    file: "scripts/commands/example.ts",
    allowed: false,
  },
  { code: 'const pg = await import("pg");', file: "lib/server/campaigns/example.ts", allowed: true },
  {
    code: 'await client.query(`INSERT INTO "AuditEvent" (id) VALUES ($1)`, ["x"]);',
    file: "lib/server/campaigns/example.ts",
    allowed: false,
  },
  {
    code: "await client.query('INSERT INTO \"AuditEvent\" (id) VALUES ($1)', ['x']);",
    file: "lib/server/campaigns/example.ts",
    allowed: false,
  },
  {
    code: 'await client.query(`INSERT INTO "AuditEvent" (id) VALUES ($1)`, ["x"]);',
    file: "lib/server/audit/audit.ts",
    allowed: true,
  },
];

describe("the layer rule", () => {
  it.each(CASES)(
    "$file: $code → allowed $allowed",
    async ({ code, file, allowed }) => {
      const errors = await layerErrors(code, file);
      expect(errors.length === 0, errors.join("; ")).toBe(allowed);
    },
    60_000,
  );

  // These reached Prisma or the sandbox from the wrong layer before the layers were made explicit.
  it.each([
    "lib/server/verification/jobs.ts",
    "scripts/bench/sandbox.ts",
    "lib/server/runs/runs.ts",
    "lib/server/imports/imports.ts",
  ])(
    "%s keeps to its layer",
    async (file) => {
      const [result] = await eslint.lintFiles([file]);
      expect(result.messages.filter((message) => LAYER_RULE_IDS.includes(message.ruleId ?? ""))).toEqual([]);
    },
    60_000,
  );
});
