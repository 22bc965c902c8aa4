// A CLI command on the embedded database, as a single-machine user runs it: it starts the server,
// does its work, stops the server, and says nothing else.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { EMBEDDED_ONLY, isSystemPostgresRun } from "@/lib/testing/test-postgres";

// Inside the project, like every test cluster: as root the server runs as "postgres", which may not
// enter a private folder in /tmp.
const dataDir = join(process.cwd(), ".data", `test-cli-embedded-${Date.now()}`);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(isSystemPostgresRun)(`a CLI command on the embedded database${EMBEDDED_ONLY}`, () => {
  it("stops the server without reporting its own connections as lost", () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VERITY_DATA_DIR: dataDir,
      VERITY_DB_PORT: String(Number(process.env.VERITY_TEST_DB_PORT ?? 54339) + 31),
    };
    delete env.DATABASE_URL;
    const result = spawnSync(
      process.execPath,
      [
        "scripts/verity.mjs",
        "users",
        "add",
        "--email",
        "quiet@example.test",
        "--role",
        "ADMIN",
        "--password",
        "quiet-password-1",
      ],
      { env, encoding: "utf8", timeout: 120_000 },
    );
    expect(result.stdout, result.stderr).toContain("Created quiet@example.test (ADMIN).");
    expect(result.stderr).not.toContain("connection lost");
    expect(result.status).toBe(0);
  }, 150_000);
});
