import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";

import { expect, test } from "@playwright/test";

// Graceful shutdown: SIGTERM to `verity serve` stops Next.js, the job queue and the embedded
// PostgreSQL, and the process exits cleanly. Runs its own server on its own port and data folder.
test("SIGTERM stops the app and its embedded database cleanly", async () => {
  test.setTimeout(180_000);
  const dataDir = join(process.cwd(), ".data", "e2e-shutdown");
  rmSync(dataDir, { recursive: true, force: true });
  const server = spawn(process.execPath, ["scripts/verity.mjs", "serve"], {
    env: {
      ...process.env,
      VERITY_DATA_DIR: dataDir,
      VERITY_DB_PORT: "54369",
      PORT: "3190",
      VERITY_DEMO: "0",
      NEXTAUTH_SECRET: "e2e-only",
    },
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  await expect(async () => {
    const response = await fetch("http://127.0.0.1:3190/api/health");
    expect(response.status).toBe(200);
  }).toPass({ timeout: 120_000 });
  expect(existsSync(join(dataDir, "postgres", "postmaster.pid"))).toBe(true);

  server.kill("SIGTERM");
  const code = await Promise.race([
    exited,
    new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000)),
  ]);
  expect(code).toBe(0);
  await expect(fetch("http://127.0.0.1:3190/api/health")).rejects.toThrow();
  expect(existsSync(join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
  rmSync(dataDir, { recursive: true, force: true });
});
