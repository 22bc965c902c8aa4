import "server-only";

import { LANGUAGES } from "@/lib/records/languages";
import { config } from "@/lib/server/config";

import { createAcbBackend } from "./acb";
import { backendFor, type SandboxConfig } from "./config";
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
  SwitchedRun,
} from "./types";

export { SandboxError } from "./errors";

export type { RunOptions, RunRequest, SandboxLanguage, SandboxResult, SwitchedRun } from "./types";

export type SandboxRouter = {
  config: SandboxConfig;
  local: LocalBackend;
  /** The acb backend, or null when VERITY_SANDBOX_URL is not set. */
  acb: SandboxBackend | null;
  backendFor(language: SandboxLanguage): BackendName;
  run(request: RunRequest, options?: RunOptions): Promise<SandboxResult>;
  /**
   * One program compiled once and run once per set of variables, where the language's route allows
   * (the local backend); null elsewhere, and the caller runs each variant as a program of its own.
   */
  runSwitched(
    request: RunRequest,
    variables: readonly Readonly<Record<string, string>>[],
    options?: RunOptions,
  ): Promise<SwitchedRun | null>;
  /** Probes every language on its route now (app instances share the answer: ./availability.ts). */
  availability(): Promise<Record<SandboxLanguage, LanguageAvailability>>;
  /** Probes one language on its route now (a command that needs a few languages asks only for those). */
  availabilityOf(language: SandboxLanguage): Promise<LanguageAvailability>;
  /** Drops the local backend's cached probes (isolation, toolchains, versions): the next asks afresh. */
  forget(): void;
  /** The newest runs that could not happen at all, with the operator's detail (admins only). */
  recentFailures(): readonly SandboxFailure[];
};

export type SandboxFailure = { at: Date; language: SandboxLanguage; code: string; message: string };

// Kept in memory for the admin status page; the server log has every one.
const RECENT_FAILURES = 20;

/** Builds the router for one configuration (tests and the CLI build their own). */
export function createSandboxRouter(config: SandboxConfig): SandboxRouter {
  const local = createLocalBackend({
    isUnsafe: config.isUnsafe,
    concurrency: config.concurrency,
    memoryLimitMb: config.memoryLimitMb,
    workDir: config.workDir,
    jobFolderMb: config.jobFolderMb,
    bwrapPath: config.bwrapPath,
    cgroupParent: config.cgroupParent,
  });
  const acb = config.acbUrl ? createAcbBackend({ url: config.acbUrl }) : null;
  const failures: SandboxFailure[] = [];

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

  async function probeLanguage(language: SandboxLanguage): Promise<LanguageAvailability> {
    const backend = backendFor(config, language);
    if (backend === "acb" && !acb) {
      return { available: false, backend, reason: "routed to acb but VERITY_SANDBOX_URL is not set" };
    }
    const result = await (backend === "local" ? local : (acb as SandboxBackend)).availability(language);
    return { available: result.available, backend, ...(result.reason ? { reason: result.reason } : {}) };
  }

  async function probe(): Promise<Record<SandboxLanguage, LanguageAvailability>> {
    const entries = await Promise.all(
      LANGUAGES.map(async (language) => [language, await probeLanguage(language)] as const),
    );
    return Object.fromEntries(entries) as Record<SandboxLanguage, LanguageAvailability>;
  }

  return {
    config,
    local,
    acb,
    backendFor: (language) => backendFor(config, language),
    async run(request, options) {
      try {
        return await pick(request.language).run(request, options);
      } catch (error) {
        if (
          error instanceof SandboxError &&
          error.code !== "SANDBOX_CANCELLED" &&
          error.code !== "SANDBOX_INVALID_REQUEST"
        ) {
          failures.unshift({ at: new Date(), language: request.language, code: error.code, message: error.message });
          failures.length = Math.min(failures.length, RECENT_FAILURES);
        }
        throw error;
      }
    },
    async runSwitched(request, variables, options) {
      return backendFor(config, request.language) === "local" ? local.runSwitched(request, variables, options) : null;
    },
    forget: () => local.forget(),
    recentFailures: () => failures,
    availability: probe,
    availabilityOf: probeLanguage,
  };
}

// Next.js bundles pages and route handlers separately, each with its own copy of this module; the
// router lives on globalThis so they share one queue of local runs.
const globalForSandbox = globalThis as unknown as { veritySandboxRouter?: SandboxRouter };

/** The process-wide router configured from the environment (VERITY_SANDBOX*, see docs/sandbox.md). */
export function getSandboxRouter(): SandboxRouter {
  globalForSandbox.veritySandboxRouter ??= createSandboxRouter(config().sandbox);
  return globalForSandbox.veritySandboxRouter;
}

/**
 * Runs a solution against a test on the backend its language is routed to. Callers check the
 * `sandbox:run` permission first; throws SandboxError when no run can happen.
 */
export function runInSandbox(request: RunRequest, options?: RunOptions): Promise<SandboxResult> {
  return getSandboxRouter().run(request, options);
}

/** `runSwitched` of the process-wide router (a record's switched mutants); the caller checks permissions. */
export function runSwitchedInSandbox(
  request: RunRequest,
  variables: readonly Readonly<Record<string, string>>[],
  options?: RunOptions,
): Promise<SwitchedRun | null> {
  return getSandboxRouter().runSwitched(request, variables, options);
}
