import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

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
        },
      },
      {
        extends: true,
        test: {
          // Runs real programs under bubblewrap; needs `npm run sandbox:install` first.
          name: "sandbox",
          include: ["**/*.sandbox.test.ts"],
          exclude: ["node_modules/**"],
          fileParallelism: false,
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**"],
          globalSetup: ["./lib/testing/global-setup.ts"],
          setupFiles: ["./lib/testing/setup-integration.ts"],
          // One embedded PostgreSQL is shared by the integration files; run them one at a time.
          fileParallelism: false,
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
          setupFiles: ["./lib/testing/setup-integration.ts"],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
