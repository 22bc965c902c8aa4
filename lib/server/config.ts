import "server-only";

import { availableParallelism } from "node:os";
import { resolve } from "node:path";

import { z } from "zod";

import { CRITIC_KEY_PREFIX, CRITIC_KEY_VARIABLE_MESSAGE, isCriticKeyVariable } from "@/lib/critics/key-variable";
import { type ExternalProviderConfig, externalProvidersFromEnv } from "@/lib/server/auth/providers";
import { type SandboxConfig, sandboxConfigFrom, sandboxSettings } from "@/lib/server/sandbox/config";

// Verity's whole configuration: one schema, parsed once into a frozen object that every module
// reads through `config()`. The README's configuration table and .env.example list exactly these
// keys (lib/server/config.test.ts holds the three together), and no other production file reads
// process.env for a setting.

const booleanFlag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

const positiveCount = (max: number) => z.coerce.number().int().min(1).max(max).optional();

const settingsSchema = z.object({
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  VERITY_DATA_DIR: z.string().default(".data"),
  VERITY_DB_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  VERITY_DEMO: z.enum(["0", "1"]).default("1"),
  VERITY_PUBLIC_URL: z.string().url().optional(),
  VERITY_SECURE_COOKIES: booleanFlag,
  VERITY_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  NEXTAUTH_SECRET: z.string().optional(),
  VERITY_IMPORT_MAX_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024)
    .default(1024),
  VERITY_SCRATCH_KEEP: z.coerce.number().int().min(1).max(1_000_000).default(50),
  VERITY_SCRATCH_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  VERITY_OPEN_REPAIRS: z.coerce.number().int().min(1).max(10_000).default(5),
  VERITY_IN_APP_WORKERS: z.enum(["0", "1"]).default("1"),
  VERITY_WORKER_CONCURRENCY: positiveCount(256),
  VERITY_CRITIC_WORKERS: positiveCount(64),
  GITHUB_ID: z.string().optional(),
  GITHUB_SECRET: z.string().optional(),
  OIDC_ISSUER: z.string().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().optional(),
  ...sandboxSettings,
});

/** Every variable the configuration reads. */
export const CONFIGURATION_VARIABLES = Object.keys(settingsSchema.shape);

/** Families of variables read by prefix rather than by name (the README lists each as PREFIX*). */
export const CONFIGURATION_PREFIXES = [CRITIC_KEY_PREFIX];

export type AppConfig = {
  databaseUrl: string | undefined;
  dataDir: string;
  dbPort: number;
  loadDemo: boolean;
  publicUrl: string;
  port: number;
  /** The session-signing secret (also the key behind queue draws and sealed API keys); unset outside the app. */
  authSecret: string | undefined;
  /** The largest import body accepted over HTTP, in bytes as sent (gzipped or not). */
  importMaxBytes: number;
  /** Scratch runs kept per user (newest first) and their longest age; runs cited by a label stay. */
  scratchRetention: { keep: number; maxAgeDays: number };
  /** Repairs one person may have waiting for their second check at once (each one ran code and blocks its record). */
  openRepairsPerUser: number;
  /** How many reverse proxies in front of the app append to X-Forwarded-For (0: none, the header is ignored). */
  trustedProxies: number;
  /** Session cookies are `__Host-` prefixed and Secure: the public URL is https, or VERITY_SECURE_COOKIES is on. */
  secureCookies: boolean;
  /** GitHub and generic OIDC sign-in, when configured. */
  externalProviders: ExternalProviderConfig[];
  workers: {
    /** Whether the app's own process drains the verification and critic queues. */
    inApp: boolean;
    /** Verification jobs one process works on at once. */
    verificationConcurrency: number;
    /** Critic runs one process works on at once. */
    criticRuns: number;
  };
  sandbox: SandboxConfig;
};

/** Reads Verity's settings from an environment (pure; see the configuration table in the README). */
export function readConfig(env: Record<string, string | undefined>, cpuCount = availableParallelism()): AppConfig {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  const value = parsed.data;
  const publicUrl = value.VERITY_PUBLIC_URL ?? `http://localhost:${value.PORT}`;
  return {
    databaseUrl: value.DATABASE_URL,
    dataDir: resolve(value.VERITY_DATA_DIR),
    dbPort: value.VERITY_DB_PORT,
    loadDemo: value.VERITY_DEMO === "1",
    publicUrl,
    port: value.PORT,
    authSecret: value.NEXTAUTH_SECRET || undefined,
    importMaxBytes: value.VERITY_IMPORT_MAX_MB * 1024 * 1024,
    scratchRetention: { keep: value.VERITY_SCRATCH_KEEP, maxAgeDays: value.VERITY_SCRATCH_DAYS },
    openRepairsPerUser: value.VERITY_OPEN_REPAIRS,
    trustedProxies: value.VERITY_TRUST_PROXY,
    secureCookies: value.VERITY_SECURE_COOKIES || publicUrl.startsWith("https://"),
    externalProviders: externalProvidersFromEnv({
      GITHUB_ID: value.GITHUB_ID,
      GITHUB_SECRET: value.GITHUB_SECRET,
      OIDC_ISSUER: value.OIDC_ISSUER,
      OIDC_CLIENT_ID: value.OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: value.OIDC_CLIENT_SECRET,
      OIDC_NAME: value.OIDC_NAME,
    }),
    workers: {
      inApp: value.VERITY_IN_APP_WORKERS === "1",
      verificationConcurrency: value.VERITY_WORKER_CONCURRENCY ?? cpuCount,
      criticRuns: value.VERITY_CRITIC_WORKERS ?? 2,
    },
    sandbox: sandboxConfigFrom(value, cpuCount),
  };
}

/**
 * The value of a critic key variable in this process's environment (read at each run, so a key the
 * operator rotates needs no restart). Refuses any name outside the critic prefix: a critic stored
 * before the rule, or written by hand, must not send another secret.
 */
export function criticKeyFromEnvironment(name: string): string | undefined {
  if (!isCriticKeyVariable(name))
    throw new Error(`the critic names ${name} for its API key; only ${CRITIC_KEY_VARIABLE_MESSAGE} may hold one`);
  return process.env[name] || undefined;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const globalForConfig = globalThis as unknown as { verityConfig?: AppConfig };

/** This process's configuration, parsed from its environment at the first read and frozen. */
export function config(): AppConfig {
  globalForConfig.verityConfig ??= deepFreeze(readConfig(process.env));
  return globalForConfig.verityConfig;
}

/**
 * Two values are settled at start rather than configured: the embedded database's URL (once it
 * runs) and the session secret `verity serve` keeps in the data folder. Setting them makes a new
 * frozen configuration; nothing writes them into process.env.
 */
export function settleConfig(values: Partial<Pick<AppConfig, "databaseUrl" | "authSecret">>): void {
  globalForConfig.verityConfig = deepFreeze({ ...config(), ...values });
}

/** Parses the environment again at the next read: for tests, which change variables between cases. */
export function reloadConfig(): void {
  globalForConfig.verityConfig = undefined;
}
