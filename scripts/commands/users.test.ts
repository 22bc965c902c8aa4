import { spawnSync } from "node:child_process";

import { describe, expect, it } from "vitest";

// `verity users add --password` follows the web's password rule; a bad password is a usage error
// (exit 2) before the database is touched (DATABASE_URL points nowhere to make sure).
function usersAdd(password: string) {
  return spawnSync(
    process.execPath,
    [
      "scripts/verity.mjs",
      "users",
      "add",
      "--email",
      "cli@example.test",
      "--role",
      "ANNOTATOR",
      "--password",
      password,
    ],
    {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: "postgresql://verity@127.0.0.1:9/nowhere" },
      timeout: 60_000,
    },
  );
}

describe("verity users add --password", () => {
  it("refuses what the web refuses: fewer than 10 characters, more than 72 bytes", () => {
    const short = usersAdd("ninechars");
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/at least 10 characters/);
    const long = usersAdd("é".repeat(37));
    expect(long.status).toBe(2);
    expect(long.stderr).toMatch(/72 bytes/);
  }, 120_000);
});
