// The `verity` command line: one program, a subcommand per job.
import { Command } from "commander";

import { registerBackupCommands } from "./commands/backup";
import { registerCriticCommands } from "./commands/critic";
import { registerDbCommands } from "./commands/db";
import { registerGoldCommands } from "./commands/gold";
import { registerHarnessCommand } from "./commands/harness";
import { registerImportCommands } from "./commands/import";
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
    process.exit(error.exitCode === 0 ? 0 : 2);
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
registerBackupCommands(program);
registerSandboxCommands(program);
registerCriticCommands(program);
registerSolutionCommands(program);

await program.parseAsync(process.argv);
