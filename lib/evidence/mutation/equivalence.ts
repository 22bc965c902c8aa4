import type { Language } from "@/lib/records/languages";

import type { Mutant } from "./mutate";
import { tokenize } from "./tokenize";

// Likely-equivalent mutants: survivors that no test could kill because they do not change what the
// program does. Counting them as survivors makes good tests look weak (a "weak tests" flag made only
// of them is a false alarm), so they are kept apart, each with the reason. What the text alone
// shows is decided here; "the compiled program is identical" needs a compiler (the evidence jobs).
// Pure.

/** A surviving mutant with why it is likely equivalent; the score over real survivors leaves it out. */

/** Where the reference's C++ harness cuts the solution (its own `main` goes; the test brings one). */
function cppCut(solution: string): number {
  return solution.trim().split("int main")[0].length + (solution.length - solution.trimStart().length);
}

/**
 * Why a mutant is equivalent to its solution by its text alone, or null: a change in the part of a C++
 * solution the harness drops (its own `main`), or an operation with its identity (`x * 1` → `x / 1`,
 * `x + 0` → `x - 0`).
 */
export function equivalentByText(solution: string, language: Language, mutant: Mutant): string | null {
  if (language === "cpp" && solution.includes("int main") && mutant.start >= cppCut(solution))
    return "it changes the solution's own main, which the harness drops: no test runs it";
  if (mutant.operator !== "arithmetic") return null;
  const tokens = tokenize(solution, language);
  const index = tokens.findIndex((token) => token.start === mutant.start);
  const next = tokens.slice(index + 1).find((token) => token.kind !== "space" && token.kind !== "comment");
  const after = next ? tokens[tokens.indexOf(next) + 1] : undefined;
  // The operand must be the bare number: `x * 1.5` or `x * 1e3` tokenize otherwise, `x * 1[0]` is no identity.
  const isBare = after === undefined || ![".", "[", "("].includes(after.text);
  if (!next || next.kind !== "number" || !isBare) return null;
  const pair = `${mutant.original}${mutant.replacement}`;
  if ((pair === "*/" || pair === "/*") && next.text === "1")
    return `multiplying and dividing by 1 give the same value (${mutant.before.trim()})`;
  if ((pair === "+-" || pair === "-+") && next.text === "0")
    return `adding and subtracting 0 give the same value (${mutant.before.trim()})`;
  return null;
}

/** The score over real survivors: killed ÷ (viable − likely equivalent); null with nothing left to count. */
export function scoreOverRealSurvivors(killed: number, viable: number, likelyEquivalent: number): number | null {
  const counted = viable - likelyEquivalent;
  return counted > 0 ? killed / counted : null;
}
