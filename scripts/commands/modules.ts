// Which module registers which of `verity`'s top-level commands. A run loads only the module of the
// command it names: every module loaded costs its imports (the app's server modules, Prisma, the
// sandbox), about half a second of CPU for all of them on each run. Help, no command and an unknown
// command load them all, so help lists every command and a typo gets its suggestion.
// modules.test.ts checks the names against what each module registers.
import type { Command } from "commander";

type Register = (program: Command) => void;

/** In the order help lists them. */
export const COMMAND_MODULES: { names: string[]; load: () => Promise<Register> }[] = [
  { names: ["serve"], load: async () => (await import("./serve")).registerServeCommand },
  { names: ["db"], load: async () => (await import("./db")).registerDbCommands },
  { names: ["import", "import-critic"], load: async () => (await import("./import")).registerImportCommands },
  { names: ["users", "tokens"], load: async () => (await import("./users")).registerUserCommands },
  { names: ["verify", "worker"], load: async () => (await import("./verify")).registerVerifyCommands },
  { names: ["evidence"], load: async () => (await import("./evidence")).registerEvidenceCommand },
  { names: ["report", "export"], load: async () => (await import("./report")).registerReportCommands },
  { names: ["release"], load: async () => (await import("./release")).registerReleaseCommands },
  { names: ["gold"], load: async () => (await import("./gold")).registerGoldCommands },
  { names: ["harness"], load: async () => (await import("./harness")).registerHarnessCommand },
  { names: ["environment"], load: async () => (await import("./environment")).registerEnvironmentCommand },
  { names: ["backup", "restore"], load: async () => (await import("./backup")).registerBackupCommands },
  { names: ["sandbox"], load: async () => (await import("./sandbox")).registerSandboxCommands },
  { names: ["critic"], load: async () => (await import("./critic")).registerCriticCommands },
  { names: ["solutions"], load: async () => (await import("./solutions")).registerSolutionCommands },
  { names: ["jobs"], load: async () => (await import("./jobs")).registerJobsCommand },
];

/** The modules a run with these arguments (after `verity`) needs: the named command's, or all. */
export function modulesFor(args: string[]): typeof COMMAND_MODULES {
  const name = args[0];
  const named = COMMAND_MODULES.find((entry) => name !== undefined && entry.names.includes(name));
  return named ? [named] : COMMAND_MODULES;
}
