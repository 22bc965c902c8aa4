// "Executed bare" for the batch-verification benchmark: a record's canonical solution and test,
// spliced into the same program by the same language recipe, compiled and run with the same steps
// and time limit — but spawned directly in a scratch folder, with no bubblewrap, no prlimit, no
// cgroup, no job queue and no database. The floor a sandboxed batch is compared against.
import { spawn } from "node:child_process";
import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { baseSandboxEnv, rebaseEnv, SANDBOX_PATH } from "@/lib/server/sandbox/isolation";
import { getRecipe, stepTimeoutMs } from "@/lib/server/sandbox/recipes";
import type { SandboxLanguage } from "@/lib/server/sandbox/types";

export type BareResult = "passed" | "failed" | "unavailable";

async function onPath(command: string): Promise<boolean> {
  for (const dir of SANDBOX_PATH.split(":")) {
    if (
      await access(join(dir, command)).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}

/** Spawns argv in `cwd`; resolves true when it exits 0 within `timeoutMs` (output is read and dropped). */
function runStepBare(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout.resume();
    child.stderr.resume();
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/** Runs one solution against one test bare; "unavailable" when the recipe's toolchain is not on the host. */
export async function runBare({
  language,
  solution,
  test,
}: {
  language: SandboxLanguage;
  solution: string;
  test: string;
}): Promise<BareResult> {
  const recipe = getRecipe(language);
  for (const command of recipe.toolchain.commands) if (!(await onPath(command))) return "unavailable";
  const spliced = recipe.splice(solution, test);
  if (spliced.syntaxError) return "failed";
  const dir = await mkdtemp(join(tmpdir(), "verity-bare-"));
  try {
    for (const file of spliced.files) {
      await mkdir(dirname(join(dir, file.path)), { recursive: true });
      await writeFile(join(dir, file.path), file.content);
    }
    const env = rebaseEnv(baseSandboxEnv(recipe.env), dir);
    const timeoutMs = stepTimeoutMs(language);
    for (const step of [recipe.compile, recipe.run]) {
      if (step && !(await runStepBare(step.argv, dir, env, timeoutMs))) return "failed";
    }
    return "passed";
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
