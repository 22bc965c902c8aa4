// Vitest global setup of the cluster tier (`npm run test:cluster`): the set-up of docs/deploy.md,
// for real, on this machine. Debian's PostgreSQL (a private cluster in a temporary folder) as
// DATABASE_URL; the app built once; migrations applied with `verity db migrate`; two app instances
// (`verity serve`, what `npm start` runs) sharing NEXTAUTH_SECRET and VERITY_PUBLIC_URL behind a
// round-robin balancer, with in-app workers off; one standalone `verity worker` (`npm run worker`).
// Everything is stopped and removed at the end, also when a test or the set-up itself fails; each
// process's output stays in .data/cluster-logs/ for a failure's post-mortem (cleared at the next run).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { TestProject } from "vitest/node";

import { startSystemPostgres } from "@/lib/testing/system-postgres";

import { type Balancer, startBalancer } from "./balancer";
import { type Service, startService, waitUntilHealthy } from "./processes";
import { startWorker } from "./worker";

/** Ports: instance A, B and the balancer from VERITY_CLUSTER_PORT on; PostgreSQL on VERITY_CLUSTER_DB_PORT. */
const BASE_PORT = Number(process.env.VERITY_CLUSTER_PORT ?? 3310);
const DB_PORT = Number(process.env.VERITY_CLUSTER_DB_PORT ?? 54479);
export const CLUSTER_LOG_DIR = join(process.cwd(), ".data", "cluster-logs");

const log = (message: string) => console.log(`[cluster] ${message}`);

export default async function setup(project: TestProject) {
  const startedAt = Date.now();
  rmSync(CLUSTER_LOG_DIR, { recursive: true, force: true });
  mkdirSync(CLUSTER_LOG_DIR, { recursive: true });
  // Stopped in reverse order of start; the app processes (added as one step) stop together.
  const cleanups: (() => Promise<unknown> | void)[] = [];
  const teardown = async () => {
    const started = Date.now();
    for (const cleanup of cleanups.reverse()) await cleanup();
    log(`stopped everything in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  try {
    const database = await startSystemPostgres({ port: DB_PORT });
    cleanups.push(() => database.stop());
    log(`PostgreSQL ${database.version} on 127.0.0.1:${DB_PORT}`);

    if (!existsSync(join(process.cwd(), ".next", "BUILD_ID"))) {
      log("No build in .next: running `next build` once");
      const build = spawnSync("npx", ["next", "build"], {
        stdio: "inherit",
        env: { ...process.env, NODE_ENV: "production" },
      });
      if (build.status !== 0) throw new Error("next build failed");
    }
    // `npm run db:migrate`, `npm start` and `npm run worker` are these same commands (package.json); they
    // are spawned directly so that a stop or a SIGKILL reaches the process itself, not an npm wrapper.
    const migrate = spawnSync(process.execPath, ["scripts/verity.mjs", "db", "migrate"], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: database.url },
    });
    if (migrate.status !== 0) throw new Error(`verity db migrate failed: ${migrate.stderr || migrate.stdout}`);

    const instanceUrls = [BASE_PORT, BASE_PORT + 1].map((port) => `http://127.0.0.1:${port}`);
    const balancerPort = BASE_PORT + 2;
    const dataDir = mkdtempSync(join(tmpdir(), "verity-cluster-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The same environment on every instance (docs/deploy.md §2); only the port differs.
    const shared = {
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      VERITY_PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
      VERITY_TRUST_PROXY: "1",
      VERITY_IN_APP_WORKERS: "0",
      VERITY_DEMO: "0",
      VERITY_DATA_DIR: dataDir,
    };
    const instances: Service[] = ["a", "b"].map((name, index) =>
      startService({
        name: `instance-${name}`,
        args: ["scripts/verity.mjs", "serve"],
        env: { ...shared, PORT: String(BASE_PORT + index) },
        logDir: CLUSTER_LOG_DIR,
      }),
    );
    cleanups.push(() => Promise.all(instances.map((instance) => instance.stop())));
    const balancer: Balancer = await startBalancer({
      port: balancerPort,
      upstreams: instanceUrls.map((url) => new URL(url)),
    });
    cleanups.push(() => balancer.close());
    await Promise.all(
      instances.map((instance, index) => waitUntilHealthy(`${instanceUrls[index]}/api/health`, instance)),
    );
    log(`instances on ${instanceUrls.join(" and ")}, balancer ${balancer.url}`);

    const worker = await startWorker({ databaseUrl: database.url, name: "worker-1", logDir: CLUSTER_LOG_DIR });
    cleanups.push(() => worker.stop());
    log(`worker pid ${worker.pid}; set-up took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);

    project.provide("databaseUrl", database.url);
    project.provide("adminDatabaseUrl", database.adminUrl);
    project.provide("cluster", {
      instanceUrls,
      balancerUrl: balancer.url,
      workerPid: worker.pid,
      logDir: CLUSTER_LOG_DIR,
    });
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The database the cluster's app instances and worker share. */
    databaseUrl: string;
    cluster: { instanceUrls: string[]; balancerUrl: string; workerPid: number; logDir: string };
  }
}
