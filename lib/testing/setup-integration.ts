// Per-file setup for integration tests: points the data layer at the test database.
import { afterAll, inject } from "vitest";

import { disconnectPrisma } from "@/lib/server/db/client";
import { closePgPool } from "@/lib/server/db/pool";
import { setEnv } from "@/lib/testing/env";

setEnv({ DATABASE_URL: inject("databaseUrl") });

afterAll(async () => {
  await disconnectPrisma();
  await closePgPool();
});
