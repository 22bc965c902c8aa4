import "server-only";

import { findInSandbox, findOnHost, isWorldReadable } from "./host";
import { FAILED_PROBE_CACHE_MS, type IsolationProbe } from "./local-isolation";
import { firstLine } from "./output";
import { getRecipe } from "./recipes";
import type { StepRun } from "./run-step";
import type { SandboxLanguage } from "./types";

export type ToolchainStatus = { isFound: boolean; missing: string[] };

export type ToolchainProbe = {
  /** A toolchain probe, cached for minutes when found and briefly when not (see `isolation`). */
  toolchain(language: SandboxLanguage, options?: { isRecheck?: boolean }): Promise<ToolchainStatus>;
  /**
   * The first line of the toolchain's version command, asked once per TOOLCHAIN_CACHE_MS (stored
   * with each verification run so a result says what it ran on). Null when it cannot be told.
   */
  toolchainVersion(language: SandboxLanguage): Promise<string | null>;
  /** Drops the cached toolchain and version probes. */
  forget(): void;
};

// Toolchains change only when someone installs one; re-probe every few minutes.
const TOOLCHAIN_CACHE_MS = 5 * 60_000;

/**
 * Creates the local backend's toolchain probe: which of a language's commands and files the sandbox
 * sees, and the toolchain's version, asked by running its version command through the sandbox.
 */
export function createToolchainProbe(options: {
  isolation: IsolationProbe["isolation"];
  /** Runs a command through the sandbox (the backend's `runCommand`). */
  runCommand: (
    argv: readonly string[],
    options: { timeoutMs: number; env: Record<string, string> },
  ) => Promise<StepRun>;
}): ToolchainProbe {
  const toolchainCache = new Map<SandboxLanguage, { checkedAt: number; value: ToolchainStatus }>();
  const versionCache = new Map<SandboxLanguage, { checkedAt: number; value: Promise<string | null> }>();

  function toolchainVersion(language: SandboxLanguage): Promise<string | null> {
    const cached = versionCache.get(language);
    if (cached && Date.now() - cached.checkedAt < TOOLCHAIN_CACHE_MS) return cached.value;
    const recipe = getRecipe(language);
    const value = options
      .runCommand(recipe.toolchain.version, { timeoutMs: 30_000, env: recipe.env })
      .then((run) => firstLine(`${run.stdout}\n${run.stderr}`))
      .catch(() => null);
    versionCache.set(language, { checkedAt: Date.now(), value });
    return value;
  }

  async function toolchain(
    language: SandboxLanguage,
    { isRecheck = false }: { isRecheck?: boolean } = {},
  ): Promise<ToolchainStatus> {
    const cached = toolchainCache.get(language);
    const maxAge = cached?.value.isFound ? TOOLCHAIN_CACHE_MS : isRecheck ? 0 : FAILED_PROBE_CACHE_MS;
    if (cached && Date.now() - cached.checkedAt < maxAge) return cached.value;
    const value = await probeToolchain(language);
    toolchainCache.set(language, { checkedAt: Date.now(), value });
    return value;
  }

  async function probeToolchain(language: SandboxLanguage): Promise<ToolchainStatus> {
    const status = await options.isolation();
    const recipe = getRecipe(language);
    const missing: string[] = [];
    for (const command of recipe.toolchain.commands) {
      const found = status.mode === "unsafe" ? await findOnHost(command) : await findInSandbox(command);
      if (!found) missing.push(command);
    }
    for (const file of recipe.toolchain.files ?? []) {
      if (!(await isWorldReadable(file))) missing.push(file);
    }
    return { isFound: missing.length === 0, missing };
  }

  return {
    toolchain,
    toolchainVersion,
    forget: () => {
      toolchainCache.clear();
      versionCache.clear();
    },
  };
}
