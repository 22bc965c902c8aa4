import type { Language } from "@/lib/records/languages";

import { type MutationCandidate, type MutationOperator, mutationCandidates } from "./operators";

// Choosing a record's mutants: up to N of the operators' candidates, spread over the operators and
// over the solution, the same ones every time for the same solution. Pure.

export const DEFAULT_MUTANTS = 8;
export const MAX_MUTANTS = 50;

export type Mutant = {
  /** Index in the chosen list (0-based): stable for the same solution. */
  position: number;
  operator: MutationOperator;
  line: number;
  column: number;
  /** Offsets of the changed stretch in the solution: [start, end). */
  start: number;
  end: number;
  original: string;
  replacement: string;
  /** The solution's line before and after the change. */
  before: string;
  after: string;
  /** The whole mutated solution. */
  source: string;
};

/** FNV-1a over a string: a stable, well-spread order that needs no randomness. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Picks up to `count` candidates: round-robin over the operators (in MUTATION_OPERATORS order of
 * first appearance in the solution), each operator's candidates in a stable pseudo-random order
 * keyed by the solution, so a long solution is sampled all over rather than at its top.
 */
function choose(candidates: MutationCandidate[], count: number, key: string): MutationCandidate[] {
  const byOperator = new Map<MutationOperator, MutationCandidate[]>();
  for (const candidate of candidates) {
    const list = byOperator.get(candidate.operator) ?? [];
    list.push(candidate);
    byOperator.set(candidate.operator, list);
  }
  const rank = (candidate: MutationCandidate) => fnv1a(`${key}:${candidate.start}:${candidate.replacement}`);
  const queues = [...byOperator.values()].map((list) =>
    [...list].sort((a, b) => rank(a) - rank(b) || a.start - b.start),
  );
  const chosen: MutationCandidate[] = [];
  while (chosen.length < count && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next && chosen.length < count) chosen.push(next);
    }
  }
  return chosen;
}

function lineAround(source: string, offset: number): { start: number; end: number } {
  const start = source.lastIndexOf("\n", offset - 1) + 1;
  const newline = source.indexOf("\n", offset);
  return { start, end: newline === -1 ? source.length : newline };
}

/**
 * Up to `count` mutants of a solution (default 8), never inside a string or a comment. The same
 * solution in the same language always gives the same mutants in the same order.
 */
export function generateMutants(source: string, language: Language, count = DEFAULT_MUTANTS): Mutant[] {
  const limit = Math.max(0, Math.min(MAX_MUTANTS, Math.floor(count)));
  return choose(mutationCandidates(source, language), limit, `${language}:${fnv1a(source)}`).map(
    (candidate, position) => {
      const mutated = source.slice(0, candidate.start) + candidate.replacement + source.slice(candidate.end);
      const { start, end } = lineAround(source, candidate.start);
      const before = source.slice(start, end);
      const after = mutated.slice(start, end + candidate.replacement.length - (candidate.end - candidate.start));
      return {
        position,
        operator: candidate.operator,
        line: candidate.line,
        column: candidate.column,
        start: candidate.start,
        end: candidate.end,
        original: candidate.original,
        replacement: candidate.replacement,
        before: before.trim(),
        after: after.trim(),
        source: mutated,
      };
    },
  );
}
