import "server-only";

import { setTimeout as sleep } from "node:timers/promises";

import { normalizeEmail, verifyPassword } from "@/lib/server/db/users";
import { createRateLimiter } from "@/lib/server/rate-limit";

import type { Actor } from "./permissions";

// Three budgets, each taken before the password is hashed (so simultaneous attempts cannot all
// pass one check) and given back when the password is right (so successes cost nothing):
// - per client address: bounds the hashing one client can cause, whatever emails it tries;
// - per account and address: a stranger's wrong guesses use up their own budget, not the owner's;
// - per account from everywhere: past the burst, attempts wait for a slot (a slow-down, not a
//   lock-out), which bounds guessing one account from many addresses to 10 a minute.
const perAddress = createRateLimiter({ capacity: 20, perMinute: 10 });
const perAccountAndAddress = createRateLimiter({ capacity: 10, perMinute: 5 });
const perAccount = createRateLimiter({ capacity: 20, perMinute: 10 });
const LONGEST_SLOW_DOWN_MS = 12_000;

/**
 * Checks an email and password for a sign-in from `address`. Returns the actor, or null for a
 * wrong email or password; throws RATE_LIMITED when a budget is spent (nothing is hashed then).
 */
export async function signInWithPassword({ email, password, address }: { email: string; password: string; address: string }): Promise<Actor | null> {
  const account = normalizeEmail(email);
  const refunds: (() => void)[] = [];
  let waitMs: number;
  try {
    perAddress.take(address);
    refunds.push(() => perAddress.refund(address));
    perAccountAndAddress.take(`${account} ${address}`);
    refunds.push(() => perAccountAndAddress.refund(`${account} ${address}`));
    waitMs = perAccount.reserve(account, LONGEST_SLOW_DOWN_MS);
    refunds.push(() => perAccount.refund(account));
  } catch (error) {
    // Refused before any hashing: it costs the client nothing from the budgets already taken.
    for (const refund of refunds) refund();
    throw error;
  }
  if (waitMs > 0) await sleep(waitMs);
  const actor = await verifyPassword({ email: account, password });
  if (actor) for (const refund of refunds) refund();
  return actor;
}
