import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

import { findIsolatedIntegrationFiles, findSerialIntegrationFiles } from "./lib/testing/serial-integration";

const root = fileURLToPath(new URL(".", import.meta.url));
const serialIntegrationFiles = findSerialIntegrationFiles(root);
const isolatedIntegrationFiles = findIsolatedIntegrationFiles(root);

export default defineConfig({
  resolve: { alias: { "@": root, "server-only": `${root}lib/testing/empty.ts` } },
  test: {
    // The cluster tier's teardown stops two app instances, a worker and PostgreSQL.
    teardownTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/*.sandbox.test.ts", "node_modules/**"],
          // Two at a time (Vitest's default here is one: cores − 1), before the sandbox tier starts.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Runs real programs under bubblewrap; needs `npm run sandbox:install` first.
          name: "sandbox",
          include: ["**/*.sandbox.test.ts"],
          exclude: ["node_modules/**"],
          // Alone on the machine, after the unit files: its limits and load tests measure time.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
        },
      },
      // The integration files share one PostgreSQL server (lib/testing/global-setup.ts), on which
      // each test process has its own copy of the migrated database. Two workers run files side
      // by side, in three groups one after the other (sequence.groupOrder; lib/testing/
      // serial-integration.ts says which file goes where): files that touch no process-global
      // state, sharing one import of the app per worker; files that do, with an import each; and
      // files whose first lines carry a `// Integration: serial — <why>` comment, one at a time.
      // `--project 'integration*'` runs all three.
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**", ...serialIntegrationFiles, ...isolatedIntegrationFiles],
          // One import per worker for the files that touch no process-global state
          // (findIsolatedIntegrationFiles): each file no longer loads Prisma and the app again.
          isolate: process.env.VERITY_TEST_ISOLATE === "1",
          globalSetup: ["./lib/testing/global-setup.ts"],
          setupFiles: ["./lib/testing/setup-integration.ts"],
          // VERITY_TEST_WORKERS=1 runs them one at a time (the CLI's --maxWorkers does not reach a project).
          maxWorkers: Number(process.env.VERITY_TEST_WORKERS || 2),
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Files that mock modules or change the environment or globals: an import of their own each.
          name: "integration-isolated",
          include: isolatedIntegrationFiles.length > 0 ? isolatedIntegrationFiles : ["no-isolated-integration-files"],
          exclude: ["node_modules/**"],
          globalSetup: ["./lib/testing/global-setup.ts"],
          setupFiles: ["./lib/testing/setup-integration.ts"],
          maxWorkers: Number(process.env.VERITY_TEST_WORKERS || 2),
          sequence: { groupOrder: 3 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration-serial",
          include: serialIntegrationFiles.length > 0 ? serialIntegrationFiles : ["no-serial-integration-files"],
          exclude: ["node_modules/**"],
          globalSetup: ["./lib/testing/global-setup.ts"],
          setupFiles: ["./lib/testing/setup-integration.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 4 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Several processes: Debian's PostgreSQL, two app instances and a worker (cluster/global-setup.ts).
          name: "cluster",
          include: ["cluster/**/*.cluster.test.ts"],
          exclude: ["node_modules/**"],
          globalSetup: ["./cluster/global-setup.ts"],
          sequence: { groupOrder: 5 },
          setupFiles: ["./lib/testing/setup-integration.ts"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
