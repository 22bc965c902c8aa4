import "server-only";

import { z } from "zod";

import { LANGUAGES } from "@/lib/records/languages";

import type { BackendName, SandboxLanguage } from "./types";

/** A run's files and /tmp together: room for any toolchain's build output, never the host's disk. */
export const DEFAULT_JOB_FOLDER_MB = 256;

export type SandboxConfig = {
  defaultBackend: BackendName;
  /** Base URL of the acb service, without a trailing slash; null when unset. */
  acbUrl: string | null;
  /** Languages sent to a backend other than the default. */
  routes: Partial<Record<SandboxLanguage, BackendName>>;
  /** Run without bubblewrap when it is missing (development only). */
  isUnsafe: boolean;
  concurrency: number;
  memoryLimitMb: number;
  /** Where job folders are created; null means the OS temp folder. */
  workDir: string | null;
  /** The size cap of one run's job folder (its files and /tmp together), in MiB. */
  jobFolderMb: number;
  /** The bubblewrap binary to use; null means look it up on PATH. */
  bwrapPath: string | null;
  /** Interactive runs one user may have going at once, on all app instances together (run leases in PostgreSQL). */
  runsPerUser: number;
  /** Interactive runs that may wait for a free sandbox slot on this app instance before new ones are refused. */
  runQueue: number;
  /** The cgroup v2 folder job cgroups are made under; null means this process's own cgroup (cgroup v1 ignores it). */
  cgroupParent: string | null;
  /** Where dataset environments are built from (the install script's registries: the same variables). */
  registries: EnvironmentRegistries;
};

export type EnvironmentRegistries = {
  /** A Go module proxy; never "direct" (that would clone repositories with git). */
  goProxy: string;
  /** A Maven repository used instead of Maven Central (a mirror of it); null for Central. */
  mavenRepository: string | null;
  /** A cargo registry used instead of crates.io (a sparse index, `sparse+https://…/`); null for crates.io. */
  cratesRegistry: string | null;
};

export const DEFAULT_REGISTRIES: EnvironmentRegistries = {
  goProxy: "https://proxy.golang.org",
  mavenRepository: null,
  cratesRegistry: null,
};

const backendSchema = z.enum(["local", "acb"]);
const languageSchema = z.enum(LANGUAGES);

/**
 * The sandbox's variables (VERITY_SANDBOX*, VERITY_BWRAP, VERITY_RUNS_PER_USER, VERITY_RUN_QUEUE and
 * the registries dataset environments are built from; docs/sandbox.md, "Configuration"): a part of
 * the one configuration schema in lib/server/config.ts, which parses them with the rest.
 */
export const sandboxSettings = {
  VERITY_SANDBOX: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value) => (value ? value : "local"))
    .pipe(backendSchema),
  VERITY_SANDBOX_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.replace(/\/+$/, "") : null))
    .pipe(z.url({ protocol: /^https?$/ }).nullable()),
  VERITY_SANDBOX_ROUTES: z.string().optional(),
  VERITY_SANDBOX_UNSAFE: z.enum(["", "0", "1", "true", "false"]).optional(),
  VERITY_SANDBOX_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  VERITY_SANDBOX_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).optional(),
  VERITY_SANDBOX_WORKDIR: z.string().optional(),
  VERITY_SANDBOX_JOB_FOLDER_MB: z.coerce.number().int().min(16).max(65_536).optional(),
  VERITY_BWRAP: z.string().optional(),
  VERITY_RUNS_PER_USER: z.coerce.number().int().min(1).max(1000).optional(),
  VERITY_RUN_QUEUE: z.coerce.number().int().min(0).max(100_000).optional(),
  VERITY_SANDBOX_CGROUP: z.string().optional(),
  VERITY_GOPROXY: z.string().optional(),
  GOPROXY: z.string().optional(),
  VERITY_MAVEN_REPOSITORY: z.string().trim().optional(),
  // Written into a cargo --config string: no quote or backslash can close it.
  VERITY_CRATES_REGISTRY: z
    .string()
    .trim()
    .regex(/^[^"\\\s]*$/, "a registry URL, e.g. sparse+https://mirror/index/")
    .optional(),
};

/** The module proxies of a GOPROXY list, without "direct" and "off"; the default when none is left. */
function goProxyFrom(list: string | undefined): string {
  const proxies = (list ?? "")
    .split(/[,|]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "" && entry !== "direct" && entry !== "off");
  return proxies.length > 0 ? proxies.join(",") : DEFAULT_REGISTRIES.goProxy;
}

/** Parses `VERITY_SANDBOX_ROUTES` (`kotlin:acb,scala:acb`); throws on an unknown language or backend. */
export function parseRoutes(text: string | undefined): Partial<Record<SandboxLanguage, BackendName>> {
  const routes: Partial<Record<SandboxLanguage, BackendName>> = {};
  for (const entry of (text ?? "").split(",")) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const [language, backend, ...rest] = trimmed.split(":").map((part) => part.trim().toLowerCase());
    const parsedLanguage = languageSchema.safeParse(language);
    const parsedBackend = backendSchema.safeParse(backend);
    if (rest.length > 0 || !parsedLanguage.success || !parsedBackend.success) {
      throw new Error(`VERITY_SANDBOX_ROUTES: cannot read "${trimmed}" (expected language:local or language:acb)`);
    }
    routes[parsedLanguage.data] = parsedBackend.data;
  }
  return routes;
}

type SandboxSettings = z.output<z.ZodObject<typeof sandboxSettings>>;

/** The sandbox's configuration from its parsed variables (pure). */
export function sandboxConfigFrom(value: SandboxSettings, cpuCount: number): SandboxConfig {
  return {
    defaultBackend: value.VERITY_SANDBOX,
    acbUrl: value.VERITY_SANDBOX_URL,
    routes: parseRoutes(value.VERITY_SANDBOX_ROUTES),
    isUnsafe: value.VERITY_SANDBOX_UNSAFE === "1" || value.VERITY_SANDBOX_UNSAFE === "true",
    concurrency: value.VERITY_SANDBOX_CONCURRENCY ?? Math.max(1, cpuCount),
    memoryLimitMb: value.VERITY_SANDBOX_MEMORY_MB ?? 1024,
    workDir: value.VERITY_SANDBOX_WORKDIR?.trim() || null,
    jobFolderMb: value.VERITY_SANDBOX_JOB_FOLDER_MB ?? DEFAULT_JOB_FOLDER_MB,
    bwrapPath: value.VERITY_BWRAP?.trim() || null,
    runsPerUser: value.VERITY_RUNS_PER_USER ?? 2,
    runQueue: value.VERITY_RUN_QUEUE ?? 16,
    cgroupParent: value.VERITY_SANDBOX_CGROUP?.trim() || null,
    registries: {
      goProxy: goProxyFrom(value.VERITY_GOPROXY || value.GOPROXY),
      mavenRepository: value.VERITY_MAVEN_REPOSITORY || null,
      cratesRegistry: value.VERITY_CRATES_REGISTRY || null,
    },
  };
}

/** The backend a language runs on under this configuration. */
export function backendFor(config: SandboxConfig, language: SandboxLanguage): BackendName {
  return config.routes[language] ?? config.defaultBackend;
}

/** The backends a configuration runs on, in a few words: "local", or "local; acb for kotlin, scala". */
export function describeBackends(config: SandboxConfig): string {
  const routed = Object.entries(config.routes).filter(([, backend]) => backend !== config.defaultBackend);
  if (routed.length === 0) return config.defaultBackend;
  const other = config.defaultBackend === "local" ? "acb" : "local";
  return `${config.defaultBackend}; ${other} for ${routed.map(([language]) => language).join(", ")}`;
}
