import { describe, expect, it } from "vitest";

import { Semaphore } from "./semaphore";

describe("Semaphore", () => {
  it("never runs more than its limit at once and runs everything", async () => {
    const semaphore = new Semaphore(2);
    let active = 0;
    let peak = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        semaphore.use(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, 5));
          active--;
          done.push(index);
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("releases its slot when a task throws", async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.use(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(semaphore.use(async () => 42)).resolves.toBe(42);
  });
});
