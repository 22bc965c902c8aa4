import "server-only";

import { availableParallelism } from "node:os";

import { LANGUAGES } from "@/lib/records/languages";

import { createAcbBackend } from "./acb";
import { backendFor, parseSandboxConfig, type SandboxConfig } from "./config";
import { SandboxError } from "./errors";
import { createLocalBackend, type LocalBackend } from "./local";
import type {
  BackendName,
  LanguageAvailability,
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
  run(request: RunRequest): Promise<SandboxResult>;
  availability(): Promise<Record<SandboxLanguage, LanguageAvailability>>;
};

// The toolchain probe spawns nothing but stats a few dozen files; still, the UI asks on every page.
const AVAILABILITY_CACHE_MS = 3 * 60_000;

/** Builds the router for one configuration (tests and the CLI build their own). */
export function createSandboxRouter(config: SandboxConfig): SandboxRouter {
  const local = createLocalBackend({
    isUnsafe: config.isUnsafe,
    concurrency: config.concurrency,
    memoryLimitMb: config.memoryLimitMb,
    workDir: config.workDir,
  });
  const acb = config.acbUrl ? createAcbBackend({ url: config.acbUrl }) : null;
  let cached: { at: number; value: Promise<Record<SandboxLanguage, LanguageAvailability>> } | null = null;

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
    run: (request) => pick(request.language).run(request),
    availability() {
      if (!cached || Date.now() - cached.at > AVAILABILITY_CACHE_MS) {
        cached = { at: Date.now(), value: probe() };
        // A failed probe must not stick for minutes.
        cached.value.catch(() => {
          cached = null;
        });
      }
      return cached.value;
    },
  };
}

let defaultRouter: SandboxRouter | null = null;

/** The process-wide router configured from the environment (VERITY_SANDBOX*, see docs/sandbox.md). */
export function getSandboxRouter(): SandboxRouter {
  defaultRouter ??= createSandboxRouter(parseSandboxConfig(process.env, availableParallelism()));
  return defaultRouter;
}

/**
 * Runs a solution against a test on the backend its language is routed to. Callers check the
 * `sandbox:run` permission first; throws SandboxError when no run can happen.
 */
export function runInSandbox(request: RunRequest): Promise<SandboxResult> {
  return getSandboxRouter().run(request);
}

/** Per language: can it run, on which backend, and if not, why (cached for a few minutes). */
export function languageAvailability(): Promise<Record<SandboxLanguage, LanguageAvailability>> {
  return getSandboxRouter().availability();
}
