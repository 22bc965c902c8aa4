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

describe("Semaphore with an abort signal", () => {
  it("drops an aborted waiter from the queue without it ever running, and keeps the order of the rest", async () => {
    const semaphore = new Semaphore(1);
    let release: () => void = () => undefined;
    const holder = semaphore.use(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const ran: string[] = [];
    const aborted = semaphore.use(async () => void ran.push("aborted"), controller.signal);
    const next = semaphore.use(async () => void ran.push("next"));
    controller.abort(new Error("client went away"));
    await expect(aborted).rejects.toThrow("client went away");
    release();
    await Promise.all([holder, next]);
    expect(ran).toEqual(["next"]);
    await expect(semaphore.use(async () => "free")).resolves.toBe("free");
  });

  it("refuses at once when the signal is already aborted", async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.use(async () => 1, AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });
});

describe("Semaphore exclusive use", () => {
  it("runs an exclusive task alone: it waits for running tasks and later ones wait for it", async () => {
    const semaphore = new Semaphore(2);
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`${name}+`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      events.push(`${name}-`);
    };
    await Promise.all([
      semaphore.use(task("a", 20)),
      semaphore.use(task("x", 10), undefined, { isExclusive: true }),
      semaphore.use(task("b", 5)),
    ]);
    const start = events.indexOf("x+");
    // a finished before x started; b started only after x ended.
    expect(events.indexOf("a-")).toBeLessThan(start);
    expect(events.indexOf("x-")).toBe(start + 1);
    expect(events.indexOf("b+")).toBeGreaterThan(start);
    expect(semaphore.inUse).toBe(0);
  });
});
