import "server-only";

import { availableParallelism } from "node:os";

import { LANGUAGES } from "@/lib/records/languages";

import { createAcbBackend } from "./acb";
import { RunAdmission } from "./admission";
import { backendFor, parseSandboxConfig, type SandboxConfig } from "./config";
import { SandboxError } from "./errors";
import { createLocalBackend, type LocalBackend } from "./local";
import type {
  BackendName,
  LanguageAvailability,
  RunOptions,
  RunRequest,
  SandboxBackend,
  SandboxLanguage,
  SandboxResult,
} from "./types";

export { SandboxError } from "./errors";
export type { SandboxErrorCode } from "./errors";
export type {
  BackendName,
  LanguageAvailability,
  LimitName,
  Outcome,
  RunOptions,
  RunRequest,
  SandboxBackend,
  SandboxLanguage,
  SandboxResult,
} from "./types";
export { OUTCOMES } from "./types";

export type SandboxRouter = {
  config: SandboxConfig;
  local: LocalBackend;
  /** The acb backend, or null when VERITY_SANDBOX_URL is not set. */
  acb: SandboxBackend | null;
  backendFor(language: SandboxLanguage): BackendName;
  run(request: RunRequest, options?: RunOptions): Promise<SandboxResult>;
  /** Admits one interactive run for a user or throws SANDBOX_BUSY; returns the release. */
  admit(userId: string): () => void;
  availability(): Promise<Record<SandboxLanguage, LanguageAvailability>>;
  /** When the availability answer now cached was probed (null: nothing cached). */
  lastProbeAt(): Date | null;
  /** Drops every cached probe (isolation, toolchains, versions, availability): the next asks afresh. */
  forget(): void;
  /** The newest runs that could not happen at all, with the operator's detail (admins only). */
  recentFailures(): readonly SandboxFailure[];
};

export type SandboxFailure = { at: Date; language: SandboxLanguage; code: string; message: string };

// Kept in memory for the admin status page; the server log has every one.
const RECENT_FAILURES = 20;

// The toolchain probe spawns nothing but stats a few dozen files; still, the UI asks on every page.
// When a language cannot run, ask again soon: the operator is probably fixing it.
const AVAILABILITY_CACHE_MS = 3 * 60_000;
const UNAVAILABLE_CACHE_MS = 10_000;

/** Builds the router for one configuration (tests and the CLI build their own). */
export function createSandboxRouter(config: SandboxConfig): SandboxRouter {
  const local = createLocalBackend({
    isUnsafe: config.isUnsafe,
    concurrency: config.concurrency,
    memoryLimitMb: config.memoryLimitMb,
    workDir: config.workDir,
    bwrapPath: config.bwrapPath,
  });
  const acb = config.acbUrl ? createAcbBackend({ url: config.acbUrl }) : null;
  const admission = new RunAdmission({ perUser: config.runsPerUser, total: config.concurrency + config.runQueue });
  type Cached = { at: number; maxAge: number; value: Promise<Record<SandboxLanguage, LanguageAvailability>>; languages?: Record<SandboxLanguage, LanguageAvailability> };
  let cached: Cached | null = null;
  const failures: SandboxFailure[] = [];
  const lastReported = new Map<SandboxLanguage, boolean>();

  /** Tells the operator (server log) when a language stops or starts being able to run. */
  function reportChanges(languages: Record<SandboxLanguage, LanguageAvailability>): void {
    for (const [language, status] of Object.entries(languages) as [SandboxLanguage, LanguageAvailability][]) {
      const before = lastReported.get(language);
      if (before === status.available) continue;
      lastReported.set(language, status.available);
      if (!status.available) console.error(`sandbox: ${language} cannot run: ${status.reason ?? "unavailable"}`);
      else if (before === false) console.error(`sandbox: ${language} can run again`);
    }
  }

  function pick(language: SandboxLanguage): SandboxBackend {
    const name = backendFor(config, language);
    if (name === "local") return local;
    if (!acb) {
      throw new SandboxError(
        "SANDBOX_UNAVAILABLE",
        `${language} is routed to the acb sandbox but VERITY_SANDBOX_URL is not set`,
      );
    }
    return acb;
  }

  async function probe(): Promise<Record<SandboxLanguage, LanguageAvailability>> {
    const entries = await Promise.all(
      LANGUAGES.map(async (language): Promise<[SandboxLanguage, LanguageAvailability]> => {
        const backend = backendFor(config, language);
        if (backend === "acb" && !acb) {
          return [language, { available: false, backend, reason: "routed to acb but VERITY_SANDBOX_URL is not set" }];
        }
        const result = await (backend === "local" ? local : (acb as SandboxBackend)).availability(language);
        return [language, { available: result.available, backend, ...(result.reason ? { reason: result.reason } : {}) }];
      }),
    );
    return Object.fromEntries(entries) as Record<SandboxLanguage, LanguageAvailability>;
  }

  return {
    config,
    local,
    acb,
    backendFor: (language) => backendFor(config, language),
    async run(request, options) {
      let result: SandboxResult;
      try {
        result = await pick(request.language).run(request, options);
      } catch (error) {
        if (error instanceof SandboxError && error.code !== "SANDBOX_CANCELLED" && error.code !== "SANDBOX_INVALID_REQUEST") {
          failures.unshift({ at: new Date(), language: request.language, code: error.code, message: error.message });
          failures.length = Math.min(failures.length, RECENT_FAILURES);
        }
        throw error;
      }
      // It ran after all: the cached "cannot run" is stale.
      if (cached?.languages?.[request.language]?.available === false) cached = null;
      return result;
    },
    admit: (userId) => admission.admit(userId),
    lastProbeAt: () => (cached ? new Date(cached.at) : null),
    forget() {
      cached = null;
      local.forget();
    },
    recentFailures: () => failures,
    availability() {
      if (!cached || Date.now() - cached.at > cached.maxAge) {
        const entry: Cached = { at: Date.now(), maxAge: UNAVAILABLE_CACHE_MS, value: probe() };
        cached = entry;
        entry.value.then(
          (languages) => {
            entry.languages = languages;
            reportChanges(languages);
            if (Object.values(languages).every((status) => status.available)) entry.maxAge = AVAILABILITY_CACHE_MS;
          },
          // A failed probe must not stick.
          () => {
            if (cached === entry) cached = null;
          },
        );
      }
      return cached.value;
    },
  };
}

// Next.js bundles pages and route handlers separately, each with its own copy of this module; the
// router lives on globalThis so they share one queue, one admission count and one availability cache.
const globalForSandbox = globalThis as unknown as { veritySandboxRouter?: SandboxRouter };

/** The process-wide router configured from the environment (VERITY_SANDBOX*, see docs/sandbox.md). */
export function getSandboxRouter(): SandboxRouter {
  globalForSandbox.veritySandboxRouter ??= createSandboxRouter(parseSandboxConfig(process.env, availableParallelism()));
  return globalForSandbox.veritySandboxRouter;
}

/**
 * Runs a solution against a test on the backend its language is routed to. Callers check the
 * `sandbox:run` permission first; throws SandboxError when no run can happen.
 */
export function runInSandbox(request: RunRequest, options?: RunOptions): Promise<SandboxResult> {
  return getSandboxRouter().run(request, options);
}

/**
 * Admits one interactive run for `userId` (a per-user cap and a bounded queue) or throws
 * SandboxError SANDBOX_BUSY; call the returned function when the run has ended.
 */
export function admitRun(userId: string): () => void {
  return getSandboxRouter().admit(userId);
}

/** Per language: can it run, on which backend, and if not, why (cached; briefly when one cannot). */
export function languageAvailability(): Promise<Record<SandboxLanguage, LanguageAvailability>> {
  return getSandboxRouter().availability();
}
