import "server-only";

import { SandboxError } from "./errors";

/**
 * Admission of interactive runs, in this process: at most `perUser` runs going at once for one
 * user, and at most `total` for everyone (the sandbox's slots plus a bounded queue). A refused run
 * fails at once instead of waiting behind everyone else's.
 */
export class RunAdmission {
  private readonly byUser = new Map<string, number>();
  private inFlight = 0;

  constructor(private readonly limits: { perUser: number; total: number }) {}

  /** Takes a place for `userId` or throws SANDBOX_BUSY; call the returned function once the run has ended. */
  admit(userId: string): () => void {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser) {
      throw new SandboxError("SANDBOX_BUSY", `You already have ${mine} runs going. Wait for one to finish, then try again.`);
    }
    if (this.inFlight >= this.limits.total) {
      throw new SandboxError("SANDBOX_BUSY", "The sandbox is busy with other people's runs. Try again in a minute.");
    }
    this.byUser.set(userId, mine + 1);
    this.inFlight++;
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.inFlight--;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left === 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
    };
  }
}
