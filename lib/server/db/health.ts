import "server-only";

import { prisma } from "./client";

/** Whether the database answers a trivial query, with its latency. Public (health checks). */
export async function checkDatabase(): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
  const started = performance.now();
  try {
    await prisma().$queryRaw`SELECT 1`;
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: "The database does not answer." };
  }
}

/** The PostgreSQL server's version, e.g. "18.1" (benchmarks print it). */
export async function getServerVersion(): Promise<string> {
  return (await prisma().$queryRaw<{ server_version: string }[]>`SHOW server_version`)[0].server_version;
}

/** Verification jobs waiting and running, read from pg-boss's tables (absent until a worker first started). */
export async function checkQueue(): Promise<{ ok: boolean; waiting: number | null; active: number | null; error?: string }> {
  try {
    const [exists] = await prisma().$queryRaw<{ present: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`;
    if (!exists.present) return { ok: true, waiting: 0, active: 0 };
    const [row] = await prisma().$queryRaw<{ waiting: bigint; active: bigint }[]>`
      SELECT count(*) FILTER (WHERE state IN ('created', 'retry')) AS waiting, count(*) FILTER (WHERE state = 'active') AS active
      FROM pgboss.job WHERE name = 'verify-record'`;
    return { ok: true, waiting: Number(row.waiting), active: Number(row.active) };
  } catch {
    return { ok: false, waiting: null, active: null, error: "The job queue cannot be read." };
  }
}
