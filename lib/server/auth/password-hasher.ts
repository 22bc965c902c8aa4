import "server-only";

import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

// bcryptjs is pure JavaScript: run on the main thread, every hash stalls every other request for
// a quarter of a second. It runs here in a small pool of worker threads instead; at most POOL_SIZE
// hashes run at once (2, or 1 on a 2-core machine) and the rest wait in line, so a burst of
// sign-ins cannot take every core. The sign-in limits (password-sign-in.ts) are taken before a
// hash is asked for; the lines below decide whose hash runs first.
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
const PASSWORD_COST = 12;

// The worker's code is inline (not a file) so it survives bundling; it loads bcryptjs from the
// app's node_modules, as the server itself does (bcryptjs is a server-external package).
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const bcrypt = require("bcryptjs");
parentPort.on("message", ({ op, password, hash, cost }) => {
  try {
    parentPort.postMessage({ ok: true, value: op === "hash" ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash) });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error) });
  }
});`;

type Job = {
  message: { op: "hash" | "compare"; password: string; hash?: string; cost?: number };
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};
type Slot = { worker: Worker; job: Job | null };

const slots = new Set<Slot>();
// Two lines: people known to this server (they signed in from this address before, or an admin is
// setting a password) go first; everyone else waits in a bounded line and is refused at once past
// it, so strangers' guesses can neither delay a known person nor grow the line without end.
const knownLine: Job[] = [];
const otherLine: Job[] = [];
const MAX_WAITING_OTHERS = 32;

/** Who a hash is for: someone the server knows (served first) or anyone else (the bounded line). */
export type HashPriority = "known" | "other";

/** The line of unknown callers is full: refused without hashing. */
export class HasherBusyError extends Error {
  constructor() {
    super("Too many sign-ins are being checked right now; try again in a moment.");
    this.name = "HasherBusyError";
  }
}

function startWorker(): Slot {
  const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }), job: null };
  slot.worker.on("message", (reply: { ok: boolean; value?: unknown; error?: string }) => {
    const job = slot.job!;
    slot.job = null;
    // An idle worker must not keep a CLI command or a test run alive; a busy one must.
    slot.worker.unref();
    if (reply.ok) job.resolve(reply.value);
    else job.reject(new Error(reply.error));
    runNext();
  });
  // A worker that dies (it should not) fails its job and is replaced by the next one started.
  let failure: Error | undefined;
  slot.worker.on("error", (error) => (failure = error));
  slot.worker.on("exit", (code) => {
    slots.delete(slot);
    slot.job?.reject(failure ?? new Error(`The password worker stopped (exit code ${code}).`));
    runNext();
  });
  slots.add(slot);
  return slot;
}

function runNext(): void {
  if (knownLine.length === 0 && otherLine.length === 0) return;
  const slot = [...slots].find((candidate) => !candidate.job) ?? (slots.size < POOL_SIZE ? startWorker() : null);
  if (!slot) return;
  slot.job = (knownLine.shift() ?? otherLine.shift())!;
  slot.worker.ref();
  slot.worker.postMessage(slot.job.message);
}

function run<T>(message: Job["message"], priority: HashPriority): Promise<T> {
  if (priority === "other" && otherLine.length >= MAX_WAITING_OTHERS) return Promise.reject(new HasherBusyError());
  return new Promise<T>((resolve, reject) => {
    (priority === "known" ? knownLine : otherLine).push({
      message,
      resolve: resolve as (value: unknown) => void,
      reject,
    });
    runNext();
  });
}

/** A bcrypt hash of the password, computed off the main thread (an admin or an invited person setting it: known). */
export function hashPassword(password: string): Promise<string> {
  return run({ op: "hash", password, cost: PASSWORD_COST }, "known");
}

/**
 * Whether the password matches the bcrypt hash, checked off the main thread; `other` callers wait
 * behind known ones and are refused (HasherBusyError) when their line is full.
 */
export function comparePassword(password: string, hash: string, priority: HashPriority = "other"): Promise<boolean> {
  return run({ op: "compare", password, hash }, priority);
}
