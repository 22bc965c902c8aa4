import "server-only";

/** A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Runs `task` once a slot is free and releases the slot when it settles. */
  async use<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot overtake it.
      if (next) next();
      else this.active--;
    }
  }
}
