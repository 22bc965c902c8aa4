import "server-only";

type Waiter = { resolve: () => void; reject: (reason: unknown) => void };

/** A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limit: number) {}

  /**
   * Runs `task` once a slot is free and releases the slot when it settles. Aborting `signal` while
   * waiting leaves the queue and rejects with the signal's reason, without ever taking a slot.
   */
  async use<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
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
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.waiting.push(waiter);
      });
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot overtake it.
      if (next) next.resolve();
      else this.active--;
    }
  }
}
