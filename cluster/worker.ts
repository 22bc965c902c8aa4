// A standalone verification worker (`npm run worker`) on the cluster's database.
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import { type Service, startService } from "./processes";

export const WORKER_CONCURRENCY = 2;

/** Starts `verity worker` and waits until it drains the queue (its start-up line is logged). */
export async function startWorker({
  databaseUrl,
  name,
  logDir,
}: {
  databaseUrl: string;
  name: string;
  logDir: string;
}): Promise<Service> {
  const worker = startService({
    name,
    args: ["scripts/verity.mjs", "worker"],
    env: { DATABASE_URL: databaseUrl, VERITY_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY) },
    logDir,
  });
  let hasExited = false;
  void worker.exited.then(() => (hasExited = true));
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (readFileSync(worker.logFile, "utf8").includes("Verification worker running")) return worker;
    if (hasExited) break;
    await sleep(250);
  }
  await worker.stop("SIGKILL");
  throw new Error(`${name} did not start; see ${worker.logFile}`);
}
