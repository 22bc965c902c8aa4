import { describe, expect, it } from "vitest";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { createLocalBackend } from "./local";

// A switched program's runs in one sandboxed step (run-loop.ts): each run a process of its own with
// its own outcome, output and wall clock; what one run leaves running is gone before the next; a run
// the loop cannot judge as a step of its own would (a never-ending one) comes back unjudged (null).
const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const toolchain = await backend.toolchain("cpp");
const whyNot = status.problem ?? (toolchain.isFound ? null : `toolchain missing (${toolchain.missing.join(", ")})`);

// What each value of SANDBOX_MUTANT makes the program do.
const SOLUTION = `#include <cstdlib>
#include <cstdio>
#include <string>
#include <unistd.h>
int behave() {
    const char* on = std::getenv("SANDBOX_MUTANT");
    std::string mode = on ? on : "";
    if (mode == "") return 0;
    if (mode == "fail") { std::fprintf(stderr, "failed on purpose\\n"); return 3; }
    if (mode == "abort") std::abort();
    if (mode == "forever") for (;;) {}
    // Leaves a process behind that would write a file after the run has ended.
    if (mode == "leave") { std::system("(sleep 0.4; touch /job/left-behind) &"); return 0; }
    // Waits long enough for a left-behind process to have written its file.
    if (mode == "check") { usleep(800000); return access("/job/left-behind", F_OK) == 0 ? 4 : 0; }
    std::printf("mode %s\\n", mode.c_str());
    return 0;
}
`;
const TEST = "int main() { return behave(); }\n";

describe("a switched program's runs in one sandboxed step", () => {
  it.skipIf(skipWithoutSandbox(whyNot, "cpp"))(
    "gives each run its own exit status and output, cleans up between runs and leaves a never-ending run unjudged",
    async () => {
      const modes = ["", "fail", "abort", "leave", "check", "forever", "echo"];
      const switched = await backend.runSwitched(
        { language: "cpp", solution: SOLUTION, test: TEST, timeoutMs: 1_000 },
        modes.map((mode): Record<string, string> => (mode ? { SANDBOX_MUTANT: mode } : {})),
      );
      expect(switched?.isCompiled, switched?.compileOutput).toBe(true);
      const runs = switched!.runs;
      expect(runs).toHaveLength(modes.length);
      const [none, fail, abort, leave, check, forever, echo] = runs;
      expect(none?.outcome).toBe("PASSED");
      expect(fail?.outcome).toBe("RUNTIME_ERROR");
      expect(fail?.exitCode).toBe(3);
      expect(fail?.stderr).toBe("failed on purpose\n");
      expect(abort?.outcome).toBe("RUNTIME_ERROR");
      expect(abort?.signal).toBe("SIGABRT");
      expect(leave?.outcome).toBe("PASSED");
      // The process `leave` left behind was killed when its run ended: no file for `check` to find.
      expect(check?.outcome, check?.stderr).toBe("PASSED");
      // Stopped by its wall clock inside the loop: not judged there (its caller runs it alone).
      expect(forever).toBeNull();
      expect(echo?.outcome).toBe("PASSED");
      expect(echo?.stdout).toBe("mode echo\n");
      expect(none?.stdout).toBe("");
    },
    120_000,
  );
});
