import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

import type { Command } from "commander";

import { setupCodeFor } from "@/lib/auth/setup-code";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { config, settleConfig } from "@/lib/server/config";
import { openDatabase } from "@/lib/server/db/database";
import { disconnectPrisma } from "@/lib/server/db/client";
import { DEMO_DATASET, DEMO_SOLUTIONS_FILE, loadDemoDatasetIfEmpty } from "@/lib/server/imports/demo";
import { failInterruptedImports } from "@/lib/server/imports/imports";
import { closePgPool } from "@/lib/server/db/pool";
import { sweepReleaseTempFolders } from "@/lib/server/releases/build-release";
import { countUsers } from "@/lib/server/users/users";
import { startCriticWorkers } from "@/lib/server/critics/jobs";
import { importAndRunSolutions } from "@/lib/server/solvers/jobs";
import { startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";
import { stopBoss } from "@/lib/server/workers/boss";

import { nextServerEnvironment } from "./serve-env";
import { endCommand } from "./exit";
import { exitWithError } from "./with-database";
import { countOf } from "@/lib/format/count";

const nextBin = join(createRequire(import.meta.url).resolve("next/package.json"), "..", "dist", "bin", "next");

/** The session-signing secret: NEXTAUTH_SECRET, or one generated once and kept in the data folder. */
function authSecret(dataDir: string): string {
  const configured = config().authSecret;
  if (configured) return configured;
  const file = join(dataDir, "auth-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

/** Registers `verity serve`, what `npm start` runs: database, migrations, demo data, then Next.js. */
export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .option("--dev", "run Next.js in development mode", false)
    .description("Start Verity (the web app) on the embedded database or DATABASE_URL.")
    .action(async (options: { dev: boolean }) => {
      const settings = config();
      // A database that cannot be used (unreachable, too old) is one line, not a stack trace.
      const database = await openDatabase({ log: (message) => console.log(message) }).catch((error: unknown) =>
        exitWithError(error),
      );
      console.log(
        database.isOwner
          ? `Embedded PostgreSQL running in ${settings.dataDir}`
          : "Using the database that is already running.",
      );
      const interrupted = await failInterruptedImports();
      if (interrupted > 0) console.log(`Marked ${countOf(interrupted, "interrupted import")} as failed.`);
      const staleReleases = await sweepReleaseTempFolders();
      if (staleReleases > 0)
        console.log(`Removed ${countOf(staleReleases, "release folder")} a stopped server left in the temp folder.`);
      if (settings.loadDemo) {
        const demo = await loadDemoDatasetIfEmpty({ actor: SYSTEM_ACTOR.startup });
        if (demo) console.log(`Loaded the demo dataset: ${countOf(demo.imported, "record")}.`);
        if (demo && existsSync(DEMO_SOLUTIONS_FILE)) {
          // A few "models" per record, right and wrong, so solver results work out of the box.
          const solutions = await importAndRunSolutions({
            actor: SYSTEM_ACTOR.startup,
            datasetName: DEMO_DATASET,
            source: createReadStream(DEMO_SOLUTIONS_FILE),
            defaultModel: null,
            origin: "demo",
            fileName: "solutions.jsonl",
          });
          console.log(
            `Loaded the demo solutions: ${solutions.imported} from ${countOf(solutions.models.length, "model")}, queued to run.`,
          );
        }
      }
      const secret = authSecret(settings.dataDir);
      // Whoever reaches a fresh install first must not become its admin: the form asks for this code.
      if ((await countUsers()) === 0)
        console.log(
          `No users yet. Create the first admin at ${settings.publicUrl}/signin with the setup code ${setupCodeFor(secret)}`,
        );
      // The app's own process drains the verification and critic queues too, unless workers run elsewhere.
      // Critic workers open the API keys stored sealed under the session secret.
      settleConfig({ authSecret: secret });
      if (settings.workers.inApp) {
        await startVerificationWorkers();
        await startCriticWorkers();
      } else {
        await stopBoss();
        await disconnectPrisma();
        await closePgPool();
      }

      const env = nextServerEnvironment({
        base: process.env,
        databaseUrl: database.url,
        secret,
        publicUrl: settings.publicUrl,
        port: settings.port,
        cwd: process.cwd(),
      });
      if (!options.dev && !existsSync(join(process.cwd(), ".next", "BUILD_ID"))) {
        console.log("Building the app once (next build)…");
        const build = spawnSync(process.execPath, [nextBin, "build"], {
          stdio: "inherit",
          env: { ...env, NODE_ENV: "production" },
        });
        if (build.status !== 0) {
          await database.stop();
          endCommand(build.status ?? 1);
        }
      }
      const server = spawn(process.execPath, [nextBin, options.dev ? "dev" : "start", "-p", String(settings.port)], {
        stdio: "inherit",
        env,
      });
      console.log(`Verity: ${settings.publicUrl}`);
      let isShuttingDown = false;
      const shutdown = (signal: NodeJS.Signals) => {
        isShuttingDown = true;
        server.kill(signal);
      };
      process.on("SIGINT", shutdown);
      process.on("SIGTERM", shutdown);
      process.on("exit", () => server.kill("SIGTERM"));
      // The command lasts as long as Next.js runs.
      const code = await new Promise<number | null>((resolve) => server.on("exit", resolve));
      if (settings.workers.inApp) await stopVerificationWorkers(10_000).catch(() => {});
      await database.stop();
      // Asked to stop: a clean exit, whatever code Next.js gave its own SIGTERM.
      endCommand(isShuttingDown ? 0 : (code ?? 1));
    });
}
