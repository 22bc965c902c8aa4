// Per-file setup for integration and cluster tests: points the data layer at the test database.
// Integration files run on their worker's own copy of the migrated template (global-setup.ts);
// the cluster tier's files on the database its app instances share.
import { afterAll, inject } from "vitest";

import { disconnectPrisma } from "@/lib/server/db/client";
import { closePgPool } from "@/lib/server/db/pool";
import { setEnv } from "@/lib/testing/env";
import { workerDatabaseName } from "@/lib/testing/worker-database";

function databaseUrl(): string {
  const template = inject("templateDatabaseUrl");
  if (!template) return inject("databaseUrl");
  const poolId = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(poolId) || poolId < 1)
    throw new Error(`VITEST_POOL_ID should be a worker's number, got "${process.env.VITEST_POOL_ID}".`);
  const url = new URL(template);
  url.pathname = `/${workerDatabaseName(decodeURIComponent(url.pathname.slice(1)), poolId)}`;
  return url.toString();
}

setEnv({ DATABASE_URL: databaseUrl() });

// A file's job queue and worker heartbeat stop with it: a worker runs file after file in one process
// (vitest.config.ts), and a queue left polling would take the next file's jobs. Imported only when
// started, so that a file that never starts them does not load them.
const processGlobals = globalThis as { verityBoss?: unknown; verityHeartbeat?: unknown; verityCriticWorkers?: unknown };

afterAll(async () => {
  if (processGlobals.verityBoss) await (await import("@/lib/server/workers/boss")).stopBoss(5_000);
  if (processGlobals.verityCriticWorkers) (await import("@/lib/server/critics/jobs")).forgetCriticWorkers();
  if (processGlobals.verityHeartbeat) await (await import("@/lib/server/workers/workers")).stopHeartbeat();
  await disconnectPrisma();
  await closePgPool();
});
