import "server-only";

import { resolve } from "node:path";

import { z } from "zod";

const booleanFlag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

const envSchema = z.object({
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
  VERITY_IMPORT_MAX_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024)
    .default(1024),
  VERITY_SCRATCH_KEEP: z.coerce.number().int().min(1).max(1_000_000).default(50),
  VERITY_SCRATCH_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
});

export type AppConfig = {
  databaseUrl: string | undefined;
  dataDir: string;
  dbPort: number;
  loadDemo: boolean;
  publicUrl: string;
  port: number;
  /** The largest import body accepted over HTTP, in bytes as sent (gzipped or not). */
  importMaxBytes: number;
  /** Scratch runs kept per user (newest first) and their longest age; runs cited by a label stay. */
  scratchRetention: { keep: number; maxAgeDays: number };
  /** How many reverse proxies in front of the app append to X-Forwarded-For (0: none, the header is ignored). */
  trustedProxies: number;
  /** Session cookies are `__Host-` prefixed and Secure: the public URL is https, or VERITY_SECURE_COOKIES is on. */
  secureCookies: boolean;
};

/** Reads Verity's settings from the environment (see the configuration table in the README). */
export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
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
    importMaxBytes: value.VERITY_IMPORT_MAX_MB * 1024 * 1024,
    scratchRetention: { keep: value.VERITY_SCRATCH_KEEP, maxAgeDays: value.VERITY_SCRATCH_DAYS },
    trustedProxies: value.VERITY_TRUST_PROXY,
    secureCookies: value.VERITY_SECURE_COOKIES || publicUrl.startsWith("https://"),
  };
}
