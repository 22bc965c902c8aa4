import "server-only";

import { setTimeout as sleep } from "node:timers/promises";

import type { RateTake } from "@/lib/server/db/rate-limits";
import { normalizeEmail, verifyPassword } from "@/lib/server/db/users";
import { createRateLimiter, refundAll, takeAll } from "@/lib/server/rate-limit";

import type { Actor } from "./permissions";

// Three budgets kept in PostgreSQL (shared by every app instance), taken together in one round trip
// before the password is hashed (so simultaneous attempts cannot all pass one check; a refused
// attempt takes nothing) and given back when the password is right (so successes cost nothing):
// - per client address: bounds the hashing one client can cause, whatever emails it tries;
// - per account and address: a stranger's wrong guesses use up their own budget, not the owner's;
// - per account from everywhere: past the burst, attempts wait for a slot (a slow-down, not a
//   lock-out), which bounds guessing one account from many addresses to 10 a minute.
const perAddress = createRateLimiter({ name: "sign-in:address", capacity: 20, perMinute: 10 });
const perAccountAndAddress = createRateLimiter({ name: "sign-in:account-address", capacity: 10, perMinute: 5 });
const perAccount = createRateLimiter({ name: "sign-in:account", capacity: 20, perMinute: 10 });
const LONGEST_SLOW_DOWN_MS = 12_000;

/** The budgets one attempt takes, in order (exported for the test of two instances sharing them). */
export function signInBudgets(account: string, address: string): RateTake[] {
  return [
    perAddress.budget(address),
    perAccountAndAddress.budget(`${account} ${address}`),
    perAccount.budget(account, LONGEST_SLOW_DOWN_MS),
  ];
}

/**
 * Checks an email and password for a sign-in from `address`. Returns the actor, or null for a
 * wrong email or password; throws RATE_LIMITED when a budget is spent (nothing is hashed then).
 */
export async function signInWithPassword({
  email,
  password,
  address,
}: {
  email: string;
  password: string;
  address: string;
}): Promise<Actor | null> {
  const account = normalizeEmail(email);
  const budgets = signInBudgets(account, address);
  const waitMs = await takeAll(budgets);
  if (waitMs > 0) await sleep(waitMs);
  const actor = await verifyPassword({ email: account, password });
  if (actor) await refundAll(budgets);
  return actor;
}
