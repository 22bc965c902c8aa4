import { expect, test } from "@playwright/test";

import { signInAsAdmin } from "./people";

// Worker health: the app's in-app verification worker beats in PostgreSQL; /api/health lists it
// without its host, and the admin's sandbox page shows it with its host, next to the queue.

test("the admin's sandbox page and /api/health list the live verification worker and the queue", async ({ page }) => {
  const health = (await (await page.request.get("/api/health")).json()) as {
    queue: Record<string, unknown>;
    workers: { lastBeatSecondsAgo: number; concurrency: number; backend: string }[];
  };
  expect(health.queue).toMatchObject({
    ok: true,
    depth: expect.any(Number),
    active: expect.any(Number),
    heldByDeadWorkers: 0,
  });
  expect(health.workers.length).toBeGreaterThanOrEqual(1);
  expect(health.workers[0]).toMatchObject({ concurrency: expect.any(Number), backend: "local" });
  expect(health.workers[0].lastBeatSecondsAgo).toBeLessThan(15);
  expect(health.workers[0]).not.toHaveProperty("host");

  await signInAsAdmin(page);
  await page.goto("/admin/sandbox");
  await expect(page.getByTestId("worker-queue")).toContainText("held by dead workers");
  const workers = page.getByTestId("workers");
  await expect(workers.getByRole("row").filter({ hasText: "live" })).not.toHaveCount(0);
  await expect(workers).toContainText("pid");
});
