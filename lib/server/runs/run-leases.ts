import "server-only";

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

import { AppError } from "@/lib/server/errors";

import { prisma } from "@/lib/server/db/client";
import { countOf } from "@/lib/format/count";

// A lease lives this long unless the instance running it renews it (every third of it): a crashed
// instance's runs stop counting against their users within this time.
const RUN_LEASE_TTL_MS = 30_000;

const globalForLeases = globalThis as unknown as { verityInstanceId?: string };

/** This process's name among the app instances (host, pid and a random part: pids are reused). */
function instanceId(): string {
  globalForLeases.verityInstanceId ??= `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  return globalForLeases.verityInstanceId;
}

export type RunLimits = { perUser: number; perInstance: number };

/**
 * Admits one interactive run for `userId`, counted across every app instance: at most
 * `perUser` runs going at once for the user, and `perInstance` on this instance (its sandbox slots
 * plus a bounded queue). Throws AppError RATE_LIMITED when refused; returns the release, to call
 * once the run has ended. While the run lasts its lease is renewed; `ttlMs` is for tests. No
 * permission check: runRecord checks sandbox:run first.
 */
export async function admitRun({
  userId,
  limits,
  instance = instanceId(),
  ttlMs = RUN_LEASE_TTL_MS,
}: {
  userId: string;
  limits: RunLimits;
  instance?: string;
  ttlMs?: number;
}): Promise<() => Promise<void>> {
  const [row] = await prisma().$queryRaw<
    { lease_id: string | null; refusal: "user" | "instance" | null; held: number }[]
  >`
    SELECT lease_id, refusal, held FROM verity_admit_run(${userId}, ${instance}, ${limits.perUser}::int, ${limits.perInstance}::int, ${ttlMs}::int)`;
  if (row.refusal === "user")
    throw new AppError(
      "RATE_LIMITED",
      `You already have ${countOf(row.held, "run")} going. Wait for one to finish, then try again.`,
    );
  if (row.refusal === "instance" || !row.lease_id)
    throw new AppError("RATE_LIMITED", "The sandbox is busy with other people's runs. Try again in a minute.");
  const leaseId = row.lease_id;
  const renewal = setInterval(
    () => {
      prisma()
        .$executeRaw`UPDATE "RunLease" SET "expiresAt" = clock_timestamp() + ${ttlMs}::int * interval '1 millisecond' WHERE id = ${leaseId}::uuid`.catch(
        (error: unknown) => console.error("sandbox: a run's lease could not be renewed:", error),
      );
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  renewal.unref();
  let isReleased = false;
  return async () => {
    if (isReleased) return;
    isReleased = true;
    clearInterval(renewal);
    await prisma().$executeRaw`DELETE FROM "RunLease" WHERE id = ${leaseId}::uuid`;
  };
}
