// A database outage during batch work: PostgreSQL stops for several seconds while critic workers
// drain a run. Nothing may reject unhandled (an unhandled rejection ends `verity serve`, and the web
// server with it); the workers wait while the database is away and finish the run once it is back.
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { rmSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { setEnv } from "@/lib/testing/env";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { criticAnswer, type FakeOpenAI, startFakeOpenAI } from "@/lib/testing/fake-openai";
import { saveCriticSchema } from "@/lib/validation/critics";

const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { startEmbeddedPostgres } = await import("@/lib/server/db/embedded-postgres");
const { applyMigrations } = await import("@/lib/server/db/migrate");
const { importRecords } = await import("@/lib/server/imports/imports");
const { getCriticRunProgress } = await import("@/lib/server/critics/get-critic-run-progress");
const { saveCritic } = await import("@/lib/server/critics/save-critic");
const { forgetCriticWorkers, startCriticRun, startCriticWorkers } = await import("@/lib/server/critics/jobs");
const { stopBoss } = await import("@/lib/server/workers/boss");
const { createApiToken } = await import("@/lib/server/users/tokens");
const { GET: listCampaigns } = await import("@/app/api/v1/campaigns/route");

const testDatabaseUrl = process.env.DATABASE_URL!;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let fake: FakeOpenAI;

beforeAll(async () => {
  setEnv({ NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "outage-test-secret" });
  fake = await startFakeOpenAI(() => ({ delayMs: 150, content: criticAnswer({ pass: true }) }));
  process.on("unhandledRejection", onUnhandled);
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await fake.close();
  setEnv({ DATABASE_URL: testDatabaseUrl });
});

describe("a database outage during batch work", () => {
  it("pauses the critic workers without an unhandled rejection, and they finish the run once it is back", async () => {
    const dataDir = join(process.cwd(), ".data", `test-outage-${Date.now()}`);
    const port = Number(process.env.VERITY_TEST_DB_PORT ?? 54339) + 5;
    let server = await startEmbeddedPostgres({ dataDir, port });
    try {
      await applyMigrations(server.url);
      await disconnectPrisma();
      await closePgPool();
      setEnv({ DATABASE_URL: server.url });
      const admin = await makeUser("ADMIN");
      const dataset = uniqueName("outage");
      await importRecords({
        actor: admin,
        datasetName: dataset,
        source: chunks(toJsonl(Array.from({ length: 40 }, (_, index) => makeRecord(`out${index}`)))),
        skipInvalid: false,
        origin: "api",
      });
      const criticName = uniqueName("critic");
      await saveCritic({
        actor: SYSTEM_ACTOR.cli,
        input: saveCriticSchema.parse({ name: criticName, baseUrl: fake.baseUrl, model: "m", concurrency: 2 }),
      });
      const run = await startCriticRun({ actor: SYSTEM_ACTOR.cli, criticName, datasetName: dataset });
      await startCriticWorkers(1);
      for (let attempt = 0; attempt < 300; attempt++) {
        if ((await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: run.runId })).done >= 4) break;
        await sleep(50);
      }

      const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "outage" });
      const askTheApi = async () =>
        (
          await listCampaigns(
            new Request("http://localhost/api/v1/campaigns", { headers: { authorization: `Bearer ${token}` } }),
            {
              params: Promise.resolve({}),
            },
          )
        ).status;
      expect(await askTheApi()).toBe(200);

      await server.stop();
      await sleep(4_000);
      // The web side answers 503 while the database is away.
      expect(await askTheApi()).toBe(503);
      await sleep(4_000);
      server = await startEmbeddedPostgres({ dataDir, port });

      let progress = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: run.runId }).catch(() => null);
      for (let attempt = 0; attempt < 600 && progress?.status !== "SUCCEEDED"; attempt++) {
        await sleep(100);
        progress = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: run.runId }).catch(() => null);
      }
      expect(unhandled.map(String)).toEqual([]);
      expect(progress).toMatchObject({ status: "SUCCEEDED", done: 40 });
      // And recovers by itself.
      expect(await askTheApi()).toBe(200);
    } finally {
      await stopBoss(5_000).catch(() => {});
      forgetCriticWorkers();
      await disconnectPrisma();
      await closePgPool();
      setEnv({ DATABASE_URL: testDatabaseUrl });
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
