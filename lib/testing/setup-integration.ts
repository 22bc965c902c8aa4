// Per-file setup for integration and cluster tests: points the data layer at the test database.
// An integration file runs on its process's own copy of the migrated template (global-setup.ts):
// a process that runs several files (one import per worker, vitest.config.ts) keeps its copy for
// all of them, and a file with an import of its own gets a fresh one. No two processes share a
// copy, whatever vitest's worker numbers say (a finished worker is still stopping while the next
// takes its number). The cluster tier's files use the database its app instances share.
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";
import { afterAll, inject } from "vitest";

import { disconnectPrisma } from "@/lib/server/db/client";
import { closePgPool } from "@/lib/server/db/pool";
import { setEnv } from "@/lib/testing/env";

const processGlobals = globalThis as {
  verityTestDatabaseUrl?: Promise<string>;
  verityBoss?: unknown;
  verityHeartbeat?: unknown;
  verityCriticWorkers?: unknown;
};

/** A copy of the migrated template for this process, owned by the app's role; its URL. */
async function copyTemplate(templateUrl: string): Promise<string> {
  const template = new URL(templateUrl);
  const templateName = decodeURIComponent(template.pathname.slice(1));
  const owner = decodeURIComponent(template.username);
  const name = `${templateName}_p${process.pid}`;
  // The app's role may not create databases: the superuser copies.
  const admin = new pg.Client({ connectionString: inject("adminDatabaseUrl") });
  await admin.connect();
  try {
    // A process id used before in this run names a copy whose process has ended.
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName}" OWNER "${owner}"`);
        break;
      } catch (error) {
        // 55006: another session is connected to the template, e.g. another process copying it.
        if ((error as { code?: string }).code !== "55006" || attempt === 50) throw error;
        await sleep(100);
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(template);
  url.pathname = `/${name}`;
  return url.toString();
}

function databaseUrl(): Promise<string> {
  const template = inject("templateDatabaseUrl");
  if (!template) return Promise.resolve(inject("databaseUrl"));
  processGlobals.verityTestDatabaseUrl ??= copyTemplate(template);
  return processGlobals.verityTestDatabaseUrl;
}

setEnv({ DATABASE_URL: await databaseUrl() });

// A file's job queue and worker heartbeat stop with it: a process may run file after file, and a
// queue left polling would take the next file's jobs. Imported only when started, so that a file
// that never starts them does not load them.
afterAll(async () => {
  if (processGlobals.verityBoss) await (await import("@/lib/server/workers/boss")).stopBoss(5_000);
  if (processGlobals.verityCriticWorkers) (await import("@/lib/server/critics/jobs")).forgetCriticWorkers();
  if (processGlobals.verityHeartbeat) await (await import("@/lib/server/workers/workers")).stopHeartbeat();
  await disconnectPrisma();
  await closePgPool();
});
