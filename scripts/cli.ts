// The `verity` command line: one program, a subcommand per job.
import { Command } from "commander";

import { CommandExit, endCommand, exitAfterOutput } from "./commands/exit";

import { registerBackupCommands } from "./commands/backup";
import { registerCriticCommands } from "./commands/critic";
import { registerDbCommands } from "./commands/db";
import { registerEnvironmentCommand } from "./commands/environment";
import { registerGoldCommands } from "./commands/gold";
import { registerHarnessCommand } from "./commands/harness";
import { registerImportCommands } from "./commands/import";
import { registerJobsCommand } from "./commands/jobs";
import { registerServeCommand } from "./commands/serve";
import { registerUserCommands } from "./commands/users";
import { registerEvidenceCommand } from "./commands/evidence";
import { registerVerifyCommands } from "./commands/verify";
import { registerReleaseCommands } from "./commands/release";
import { registerReportCommands } from "./commands/report";
import { registerSandboxCommands } from "./commands/sandbox";
import { registerSolutionCommands } from "./commands/solutions";

const program = new Command()
  .name("verity")
  .description("Verify generated code-benchmark records.")
  .showHelpAfterError()
  .exitOverride((error) => {
    // Usage errors exit 2; help and version exit 0.
    endCommand(error.exitCode === 0 ? 0 : 2);
  });

registerServeCommand(program);
registerDbCommands(program);
registerImportCommands(program);
registerUserCommands(program);
registerVerifyCommands(program);
registerEvidenceCommand(program);
registerReportCommands(program);
registerReleaseCommands(program);
registerGoldCommands(program);
registerHarnessCommand(program);
registerEnvironmentCommand(program);
registerBackupCommands(program);
registerSandboxCommands(program);
registerCriticCommands(program);
registerSolutionCommands(program);
registerJobsCommand(program);

// Every command ends here, and only here: see exit.ts.
const code = await program.parseAsync(process.argv).then(
  () => 0,
  (error: unknown) => {
    if (error instanceof CommandExit) return error.code;
    console.error(error);
    return 1;
  },
);
await exitAfterOutput(code);
