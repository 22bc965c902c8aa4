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
