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

/**
 * The level a campaign is created with: the one asked for, else what the older `blind` flag meant
 * (blind mode hid the critic alone, so blind is "all but the critic").
 */
export function visibilityFromInput(input: { visibility?: PreLabelVisibilityName; blind?: boolean }) {
  return input.visibility ?? (input.blind ? "all-but-critic" : "all");
}

/** The stored levels that hide mutation, flakiness and solver evidence before the first label. */
export const EVIDENCE_HIDING: readonly PreLabelVisibility[] = ["NOTHING", "EXECUTION"];
