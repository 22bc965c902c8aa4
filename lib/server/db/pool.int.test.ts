// A pool closed on purpose says nothing about its connections: pool.end() resolves once it has asked
// each idle connection to close, not once they have, so a command that stops its embedded server
// right after could see the server end a connection still closing, and printed "database connection
// lost" (seen now and then at the end of a CLI command). A connection dying while the pool is open
// is still reported.
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";

import { createPool } from "./pool";

const databaseUrl = () => process.env.DATABASE_URL!;

/** Connects once through the pool and leaves the connection idle in it; returns its server process id. */
async function idleConnection(pool: pg.Pool): Promise<{ pid: number; client: pg.PoolClient }> {
  const client = await pool.connect();
  const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  client.release();
  return { pid, client };
}

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl() });
  await admin.connect();
  try {
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
  } finally {
    await admin.end();
  }
}

/** Waits until the server no longer lists the process. */
async function gone(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl() });
  await admin.connect();
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rowCount } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
      if (rowCount === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`server process ${pid} still there`);
  } finally {
    await admin.end();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a pool of connections", () => {
  it("says nothing when the server ends a connection the pool is closing", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const pool = createPool(databaseUrl(), 2);
    const { pid, client } = await idleConnection(pool);
    // Hold the connection's goodbye in its socket, as a busy machine delays it, and end the pool:
    // its promise resolves while the connection is still open on the server.
    const socket = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection
      .stream;
    socket.cork();
    await pool.end();
    await terminate(pid);
    await gone(pid);
    socket.uncork();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(
      expect.stringContaining("database connection lost"),
    );
  });

  it("reports a connection the server ends while the pool is open, and reconnects", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const pool = createPool(databaseUrl(), 2);
    try {
      const { pid } = await idleConnection(pool);
      await terminate(pid);
      await gone(pid);
      await expect
        .poll(() => errors.mock.calls.map((call) => String(call[0])))
        .toContainEqual(expect.stringContaining("database connection lost"));
      expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows[0].one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
