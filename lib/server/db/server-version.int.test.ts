// The version check against the real server the suite runs on (embedded 18, or Debian's 15 with
// VERITY_TEST_POSTGRES=system): it passes at the supported minimum and, with a minimum above the
// server, refuses with a message naming the server's actual version.
import pg from "pg";
import { describe, expect, it } from "vitest";

import { assertSupportedServer, MIN_POSTGRES_MAJOR } from "./server-version";

async function serverVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version.split(" ")[0];
  } finally {
    await client.end();
  }
}

describe("assertSupportedServer", () => {
  it("accepts the suite's server at the supported minimum", async () => {
    await expect(assertSupportedServer(process.env.DATABASE_URL!, MIN_POSTGRES_MAJOR)).resolves.toBeUndefined();
  });

  it("refuses a server older than the minimum, saying which version it found and which it needs", async () => {
    const version = await serverVersion();
    await expect(assertSupportedServer(process.env.DATABASE_URL!, 99)).rejects.toThrow(
      `PostgreSQL ${version} is too old: Verity needs PostgreSQL 99 or newer.`,
    );
  });
});
