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

afterAll(async () => {
  await disconnectPrisma();
  await closePgPool();
});
