import "server-only";

import { createRequire } from "node:module";
import { join } from "node:path";

import PgBoss from "pg-boss";

import { config } from "@/lib/server/config";
import { isDatabaseAway } from "@/lib/server/db/outage";

const globalForBoss = globalThis as unknown as { verityBoss?: Promise<PgBoss>; verityOutageGuard?: boolean };

type QueueWrite = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/**
 * pg-boss marks a finished job complete (or failed) without waiting for the answer, so while the
 * database is away that write rejects with nobody to catch it, and an unhandled rejection ends the
 * process (`verity serve`, and the web server with it). Its manager's two writes are wrapped once
 * so a failure is logged instead: the job stays active and is handed out again when it expires
 * (every job is safe to repeat). Callers that wait for the write still see it fail.
 */
function outliveQueueWritesWhileDatabaseAway(): void {
  if (globalForBoss.verityOutageGuard) return;
  globalForBoss.verityOutageGuard = true;
  const manager = createRequire(join(process.cwd(), "package.json"))("pg-boss/src/manager") as {
    prototype: Record<"complete" | "fail", QueueWrite>;
  };
  for (const name of ["complete", "fail"] as const) {
    const write = manager.prototype[name];
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const written = write.apply(this, args);
      written.catch((error: unknown) =>
        console.error(
          `job queue: a job could not be marked ${name === "complete" ? "complete" : "failed"} (${error instanceof Error ? error.message : String(error)})${isDatabaseAway(error) ? "; the database is away, the job is handed out again when it expires" : ""}`,
        ),
      );
      return written;
    };
    // pg-boss publishes its manager's functions under their names.
    Object.defineProperty(wrapped, "name", { value: name });
    manager.prototype[name] = wrapped;
  }
}

/** This process's pg-boss instance (queues live in PostgreSQL, schema "pgboss"), started once. */
export function getBoss(): Promise<PgBoss> {
  globalForBoss.verityBoss ??= (async () => {
    const url = config().databaseUrl;
    if (!url) throw new Error("DATABASE_URL is not set: open the database first.");
    outliveQueueWritesWhileDatabaseAway();
    const boss = new PgBoss({ connectionString: url, max: 4 });
    boss.on("error", (error) => console.error(`job queue: ${error.message}`));
    await boss.start();
    return boss;
  })();
  return globalForBoss.verityBoss;
}

/** Stops pg-boss, letting active jobs finish (up to `timeoutMs`); unfinished ones are retried later. */
export async function stopBoss(timeoutMs = 30_000): Promise<void> {
  const boss = await globalForBoss.verityBoss;
  globalForBoss.verityBoss = undefined;
  await boss?.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
}
