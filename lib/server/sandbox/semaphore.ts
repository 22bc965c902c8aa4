import "server-only";

type Waiter = { weight: number; resolve: () => void; reject: (reason: unknown) => void };

/**
 * A counting semaphore: at most `limit` slots held at once, the rest wait in arrival order. An
 * exclusive task holds every slot, so it runs alone (a time-limit retry that must not share the
 * machine with other runs).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limit: number) {}

  /** Slots held right now (the admin status page shows it as the sandbox's load). */
  get inUse(): number {
    return this.active;
  }

  /** Runs waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs `task` once a slot is free (every slot, with `isExclusive`) and releases it when it
   * settles. Aborting `signal` while waiting leaves the queue and rejects with the signal's reason,
   * without ever taking a slot.
   */
  async use<T>(
    task: () => Promise<T>,
    signal?: AbortSignal,
    { isExclusive = false }: { isExclusive?: boolean } = {},
  ): Promise<T> {
    signal?.throwIfAborted();
    const weight = isExclusive ? this.limit : 1;
    // Arrival order: nobody overtakes a waiter, not even a task that would fit.
    if (this.waiting.length > 0 || this.active + weight > this.limit) {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          weight,
          resolve: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
          reject,
        };
        const onAbort = () => {
          const index = this.waiting.indexOf(waiter);
          // Not in the queue any more: the slot was already handed over, so the task runs.
          if (index === -1) return;
          this.waiting.splice(index, 1);
          reject(signal?.reason);
          this.admitWaiting();
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.waiting.push(waiter);
      });
    } else {
      this.active += weight;
    }
    try {
      return await task();
    } finally {
      this.active -= weight;
      this.admitWaiting();
    }
  }

  /** Hands free slots to the waiters at the head of the queue, in order. */
  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.active + this.waiting[0].weight <= this.limit) {
      const next = this.waiting.shift() as Waiter;
      this.active += next.weight;
      next.resolve();
    }
  }
}
