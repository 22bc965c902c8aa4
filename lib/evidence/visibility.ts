import type { PreLabelVisibility } from "@/lib/generated/prisma/enums";

// What a campaign lets annotators see of a record before their first label on it — blind mode
// generalised. Each level shows everything the one before it shows. Client-safe and pure.

/** The levels as the API and the campaign form name them, from least to most. */
export const PRE_LABEL_VISIBILITIES = ["nothing", "execution", "all-but-critic", "all"] as const;
export type PreLabelVisibilityName = (typeof PRE_LABEL_VISIBILITIES)[number];

const STORED: Record<PreLabelVisibilityName, PreLabelVisibility> = {
  nothing: "NOTHING",
  execution: "EXECUTION",
  "all-but-critic": "ALL_BUT_CRITIC",
  all: "ALL",
};

/** The stored enum of a level's name. */
export function storedVisibility(name: PreLabelVisibilityName): PreLabelVisibility {
  return STORED[name];
}

/** A stored level's name, as the API and the forms spell it. */
export function visibilityName(stored: PreLabelVisibility): PreLabelVisibilityName {
  return PRE_LABEL_VISIBILITIES.find((name) => STORED[name] === stored) ?? "all";
}

/** What each level means to the admin choosing it, in one line (the campaign form and settings). */
export const VISIBILITY_EXPLANATIONS: Record<PreLabelVisibilityName, { label: string; explanation: string }> = {
  nothing: {
    label: "Nothing",
    explanation: "Annotators judge the record alone: no run results, evidence or critic until they have labelled it.",
  },
  execution: {
    label: "Execution only",
    explanation: "Annotators see whether the canonical solution passes its tests, but no other evidence or critic.",
  },
  "all-but-critic": {
    label: "All but the critic",
    explanation: "Execution and evidence (test strength, flaky, solvers) are shown; the critic's verdict is hidden.",
  },
  all: {
    label: "All",
    explanation: "Annotators see everything from the start, critic included (their labels may lean on it).",
  },
};

/**
 * The level a campaign is created with: the one asked for, else what the older `blind` flag meant
 * (blind mode hid the critic alone, so blind is "all but the critic").
 */
export function visibilityFromInput(input: { visibility?: PreLabelVisibilityName; blind?: boolean }) {
  return input.visibility ?? (input.blind ? "all-but-critic" : "all");
}

/**
 * What a level shows of a record before the first label, kind by kind: execution (run badge, runs,
 * verification), evidence (mutation score, flakiness, solvers) and the critic. EVIDENCE_HIDING and
 * EXECUTION_HIDING below say the same as stored levels.
 */
export function shownBeforeFirstLabel(level: PreLabelVisibilityName): {
  execution: boolean;
  evidence: boolean;
  critic: boolean;
} {
  const rank = PRE_LABEL_VISIBILITIES.indexOf(level);
  return { execution: rank >= 1, evidence: rank >= 2, critic: rank >= 3 };
}

/** Whether `level` shows less before the first label than `than` does (each level shows all the ones before it show). */
export function hidesMore(level: PreLabelVisibilityName, than: PreLabelVisibilityName): boolean {
  return PRE_LABEL_VISIBILITIES.indexOf(level) < PRE_LABEL_VISIBILITIES.indexOf(than);
}

/** The stored levels that hide mutation, flakiness and solver evidence before the first label. */
export const EVIDENCE_HIDING: readonly PreLabelVisibility[] = ["NOTHING", "EXECUTION"];

/** The stored levels that also hide execution (run badge, latest runs, verification) before the first label. */
export const EXECUTION_HIDING: readonly PreLabelVisibility[] = ["NOTHING"];
