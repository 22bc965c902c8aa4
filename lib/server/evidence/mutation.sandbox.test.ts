// Test strength by mutation in the real sandbox: the same small function in six languages, with a
// weak test (one trivial case) as its demo test and a strong one as its full test. Each mutant runs
// the demo test, and the full test if the demo let it through (a mutant stops at its first failing
// test): the weak test must let most mutants through and the strong one must reject them, per
// language. (A record whose tests are both the weak one would score exactly the demo score, the runs
// being deterministic; analysing it as well doubled the compiled runs — javac and JUnit start-up each
// time — for nothing more.)
import { describe, expect, it } from "vitest";

import { generateMutants } from "@/lib/evidence/mutation";
import { isSwitchingLanguage } from "@/lib/evidence/mutation/schemata";
import type { Language } from "@/lib/records/languages";
import { createLocalBackend } from "@/lib/server/sandbox/local";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import type { MutationResult } from "./batches";
import { analyseMutants, compileAlikeOn, type SwitchFunction } from "./jobs";

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();

type Case = { solution: string; weak: string; strong: string };

// count_in_range(xs, lo, hi): how many xs lie in [lo, hi]. Its mutants (bounds < for <=, "or" for
// "and", count - 1, other start values) all change the answer on a list that straddles both bounds,
// and none of them changes it on an empty list.
const CASES: Partial<Record<Language, Case>> = {
  python: {
    solution: `def count_in_range(xs, lo, hi):
    count = 0
    for x in xs:
        if lo <= x and x <= hi:
            count = count + 1
    return count
`,
    weak: `assert count_in_range([], 0, 0) == 0\n`,
    strong: `assert count_in_range([], 0, 0) == 0
assert count_in_range([1, 2, 3, 4, 5], 2, 4) == 3
assert count_in_range([9, 1], 2, 4) == 0
`,
  },
  javascript: {
    solution: `function countInRange(xs, lo, hi) {
  let count = 0;
  for (const x of xs) {
    if (lo <= x && x <= hi) {
      count = count + 1;
    }
  }
  return count;
}
`,
    weak: `const assert = require("assert");
assert.strictEqual(countInRange([], 0, 0), 0);
`,
    strong: `const assert = require("assert");
assert.strictEqual(countInRange([], 0, 0), 0);
assert.strictEqual(countInRange([1, 2, 3, 4, 5], 2, 4), 3);
assert.strictEqual(countInRange([9, 1], 2, 4), 0);
`,
  },
  cpp: {
    solution: `#include <vector>
using namespace std;

int countInRange(const vector<int>& xs, int lo, int hi) {
    int count = 0;
    for (int x : xs) {
        if (lo <= x && x <= hi) {
            count = count + 1;
        }
    }
    return count;
}
`,
    weak: `#include <cassert>
int main() {
    assert(countInRange({}, 0, 0) == 0);
    return 0;
}
`,
    strong: `#include <cassert>
int main() {
    assert(countInRange({}, 0, 0) == 0);
    assert(countInRange({1, 2, 3, 4, 5}, 2, 4) == 3);
    assert(countInRange({9, 1}, 2, 4) == 0);
    return 0;
}
`,
  },
  java: {
    solution: `public class Ranges {
    public static int countInRange(int[] xs, int lo, int hi) {
        int count = 0;
        for (int x : xs) {
            if (lo <= x && x <= hi) {
                count = count + 1;
            }
        }
        return count;
    }
}
`,
    weak: `import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestRanges {
    @Test
    public void testWeak() {
        assertEquals(0, Ranges.countInRange(new int[]{}, 0, 0));
    }
}
`,
    strong: `import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestRanges {
    @Test
    public void testStrong() {
        assertEquals(0, Ranges.countInRange(new int[]{}, 0, 0));
        assertEquals(3, Ranges.countInRange(new int[]{1, 2, 3, 4, 5}, 2, 4));
        assertEquals(0, Ranges.countInRange(new int[]{9, 1}, 2, 4));
    }
}
`,
  },
  go: {
    solution: `package main

func CountInRange(xs []int, lo int, hi int) int {
	count := 0
	for _, x := range xs {
		if lo <= x && x <= hi {
			count = count + 1
		}
	}
	return count
}
`,
    weak: `package main

import "testing"

func TestFull(t *testing.T) {
	if CountInRange([]int{}, 0, 0) != 0 {
		t.Error("empty")
	}
}
`,
    strong: `package main

import "testing"

func TestFull(t *testing.T) {
	if CountInRange([]int{}, 0, 0) != 0 {
		t.Error("empty")
	}
	if CountInRange([]int{1, 2, 3, 4, 5}, 2, 4) != 3 {
		t.Error("middle")
	}
	if CountInRange([]int{9, 1}, 2, 4) != 0 {
		t.Error("outside")
	}
}
`,
  },
  rust: {
    solution: `pub fn count_in_range(xs: &[i32], lo: i32, hi: i32) -> i32 {
    let mut count = 0;
    for &x in xs {
        if lo <= x && x <= hi {
            count = count + 1;
        }
    }
    count
}

fn main() {}
`,
    weak: `#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak() {
        assert_eq!(count_in_range(&[], 0, 0), 0);
    }
}
`,
    strong: `#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strong() {
        assert_eq!(count_in_range(&[], 0, 0), 0);
        assert_eq!(count_in_range(&[1, 2, 3, 4, 5], 2, 4), 3);
        assert_eq!(count_in_range(&[9, 1], 2, 4), 0);
    }
}
`,
  },
};

const run = (request: Parameters<typeof backend.run>[0]) => backend.run({ ...request, timeoutMs: 60_000 });
const runSwitched: SwitchFunction = (request, variables) =>
  backend.runSwitched({ ...request, timeoutMs: 60_000 }, variables);
const outcomesOf = (result: MutationResult) =>
  result.mutants.map((mutant) => `${mutant.position} ${mutant.demoOutcome}/${mutant.fullOutcome}`);

const toolchains = new Map(
  await Promise.all(
    (Object.keys(CASES) as Language[]).map(async (language) => [language, await backend.toolchain(language)] as const),
  ),
);

// The languages side by side, two runs at a time (the backend's concurrency): nothing here is
// timed, and one language's mutants run one after another, so alone they would leave a core idle.
describe.concurrent("mutation score in the sandbox", () => {
  for (const [language, { solution, weak, strong }] of Object.entries(CASES) as [Language, Case][]) {
    const toolchain = toolchains.get(language)!;
    const whyNot = status.problem ?? (toolchain.isFound ? null : `toolchain missing (${toolchain.missing.join(", ")})`);
    it.skipIf(skipWithoutSandbox(whyNot, language))(
      `${language}: a one-case test scores low, a test that straddles both bounds scores high`,
      async () => {
        const record = {
          id: 0,
          language,
          canonicalSolution: solution,
          demoTestFunc: weak,
          fullTestFunc: strong,
          executableValid: true,
        };
        const result = await analyseMutants(record, 8, { run, runSwitched });
        const detail = JSON.stringify(
          result.mutants.map((mutant) => [mutant.after, mutant.demoOutcome, mutant.fullOutcome, mutant.aloneReason]),
        );
        expect(result.notApplicable).toBeNull();
        expect(result.viable, detail).toBeGreaterThanOrEqual(5);
        // Per test, killed ÷ viable: the weak test scores low; the strong one kills most of what the
        // weak one let through (a mutant stops at its first failing test, so the two add up).
        expect(result.demoKilled / result.viable, detail).toBeLessThan(0.5);
        expect(result.demoKilled + result.fullKilled, detail).toBe(result.killed);
        expect(result.score!, detail).toBeGreaterThanOrEqual(0.8);
        for (const mutant of result.mutants)
          if (mutant.demoOutcome !== "PASSED") expect(mutant.fullOutcome, detail).toBeNull();
        // The record's mutants are the deterministic ones of its solution, in their order.
        expect(result.mutants.map((mutant) => mutant.after)).toEqual(
          generateMutants(solution, language, 8).map((mutant) => mutant.after),
        );
        if (!isSwitchingLanguage(language)) return;
        // Compiled once for its mutants, each mutant's outcomes are those of its own program.
        expect(result.mutants.filter((mutant) => mutant.isSwitched).length, detail).toBeGreaterThanOrEqual(4);
        const alone = await analyseMutants(record, 8, { run, runSwitched: null });
        expect(outcomesOf(result), detail).toEqual(outcomesOf(alone));
      },
      // Up to 16 compiled runs per language (cargo and javac take seconds each on a loaded machine).
      900_000,
    );
  }
});

describe("likely-equivalent survivors in the sandbox", () => {
  const toolchain = toolchains.get("cpp");
  const whyNot = status.problem ?? (toolchain?.isFound ? null : "toolchain missing (g++)");
  it.skipIf(skipWithoutSandbox(whyNot, "cpp"))(
    "a C++ change the optimiser compiles away survives as likely equivalent, apart from the real survivors",
    async () => {
      // `spare` is never read: changing its value changes nothing the compiled program does.
      const solution = "int add(int a, int b) {\n    int spare = 7;\n    (void)spare;\n    return a + b;\n}\n";
      const test = "#include <cassert>\nint main() {\n    assert(add(1, 2) == 3);\n    return 0;\n}\n";
      const result = await analyseMutants(
        {
          id: 0,
          language: "cpp",
          canonicalSolution: solution,
          demoTestFunc: test,
          fullTestFunc: test,
          executableValid: true,
        },
        8,
        { run, runSwitched, compileAlike: compileAlikeOn(() => backend) },
      );
      const detail = JSON.stringify(
        result.mutants.map((mutant) => [mutant.after, mutant.status, mutant.equivalentReason]),
      );
      const spare = result.mutants.filter((mutant) => mutant.after.startsWith("int spare"));
      expect(spare.length, detail).toBeGreaterThan(0);
      for (const mutant of spare) {
        expect(mutant.status, detail).toBe("SURVIVED");
        expect(mutant.equivalentReason, detail).toMatch(/compiles to exactly the solution's code/);
      }
      // The killed ones are not marked, and every survivor here is an equivalent one.
      for (const mutant of result.mutants.filter((each) => each.status === "KILLED"))
        expect(mutant.equivalentReason).toBeNull();
      expect(result.likelyEquivalent, detail).toBe(result.viable - result.killed);
    },
    300_000,
  );
});
