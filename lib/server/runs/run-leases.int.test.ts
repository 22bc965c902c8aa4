// Run admission counted in PostgreSQL: a user's runs at once hold across app instances, simultaneous
// requests cannot all pass, and a crashed instance's runs stop counting once their leases expire.
import { describe, expect, it } from "vitest";

import { uniqueName } from "@/lib/testing/factories";

import { prisma } from "@/lib/server/db/client";
import { admitRun } from "@/lib/server/runs/run-leases";

const limits = { perUser: 2, perInstance: 10 };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: Error) => error.message,
  );

describe("run leases", () => {
  it("count a user's runs on every instance together", async () => {
    const userId = uniqueName("user");
    await admitRun({ userId, limits, instance: uniqueName("a") });
    await admitRun({ userId, limits, instance: uniqueName("b") });
    expect(await refusal(admitRun({ userId, limits, instance: uniqueName("c") }))).toMatch(/already have 2 runs going/);
  });

  it("admit exactly the allowance of simultaneous requests", async () => {
    const userId = uniqueName("user");
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        refusal(admitRun({ userId, limits, instance: `instance-${i % 3}-${userId}` })),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(2);
  });

  it("bound one instance's queue, not another's", async () => {
    const instance = uniqueName("busy");
    await admitRun({ userId: uniqueName("user"), limits: { perUser: 2, perInstance: 1 }, instance });
    expect(
      await refusal(admitRun({ userId: uniqueName("user"), limits: { perUser: 2, perInstance: 1 }, instance })),
    ).toMatch(/sandbox is busy/);
    expect(
      await refusal(
        admitRun({ userId: uniqueName("user"), limits: { perUser: 2, perInstance: 1 }, instance: uniqueName("idle") }),
      ),
    ).toBeNull();
  });

  it("free a place when released, and stay held while the run lasts", async () => {
    const userId = uniqueName("user");
    const release = await admitRun({ userId, limits: { perUser: 1, perInstance: 10 }, ttlMs: 1_500 });
    const expiry = async () => (await prisma().runLease.findFirstOrThrow({ where: { userId } })).expiresAt.getTime();
    const first = await expiry();
    // Renewed every third of its life (500 ms): the expiry moves on while the run lasts. Polled
    // rather than slept for, so a slow machine only makes the wait longer.
    await expect.poll(expiry, { timeout: 10_000, interval: 100 }).toBeGreaterThan(first);
    expect(await refusal(admitRun({ userId, limits: { perUser: 1, perInstance: 10 } }))).toMatch(
      /already have 1 run going/,
    );
    await release();
    expect(await refusal(admitRun({ userId, limits: { perUser: 1, perInstance: 10 } }))).toBeNull();
  });

  it("expire when the instance that held them crashed (nobody renews them)", async () => {
    const userId = uniqueName("user");
    const crashed = uniqueName("crashed");
    // What a crashed instance leaves: leases taken, never renewed nor released.
    for (let i = 0; i < 2; i++)
      await prisma().$queryRaw`SELECT * FROM verity_admit_run(${userId}, ${crashed}, 2, 10, 500)`;
    expect(await refusal(admitRun({ userId, limits }))).toMatch(/already have 2 runs going/);
    // Their time passes: moved into the past rather than waited for.
    await prisma().runLease.updateMany({
      where: { instance: crashed },
      data: { expiresAt: new Date(Date.now() - 60_000) },
    });
    expect(await refusal(admitRun({ userId, limits }))).toBeNull();
    expect(await prisma().runLease.count({ where: { instance: crashed } })).toBe(0);
  });
});
