// The `verity` command line: one program, a subcommand per job.
import { Command } from "commander";

import { CommandExit, endCommand, exitAfterOutput } from "./commands/exit";
import { modulesFor } from "./commands/modules";

const program = new Command()
  .name("verity")
  .description("Verify generated code-benchmark records.")
  .showHelpAfterError()
  .exitOverride((error) => {
    // Usage errors exit 2; help and version exit 0.
    endCommand(error.exitCode === 0 ? 0 : 2);
  });

const registers = await Promise.all(modulesFor(process.argv.slice(2)).map((entry) => entry.load()));
for (const register of registers) register(program);

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
