import { describe, expect, it } from "vitest";

import { EVIDENCE_REASONS } from "@/lib/evidence/suspicion";

import { can, evidenceReasonScope } from "./permissions";

const annotator = { role: "ANNOTATOR" } as const;
const reviewer = { role: "REVIEWER" } as const;

describe("evidenceReasonScope", () => {
  it("lets only people who review find records by the critic beside execution", () => {
    const findable = (actor: typeof annotator | typeof reviewer) =>
      EVIDENCE_REASONS.filter((reason) => can(actor, evidenceReasonScope(reason)));
    expect(findable(annotator)).toEqual(["weak_tests", "flaky", "unsolved"]);
    expect(findable(reviewer)).toEqual(EVIDENCE_REASONS);
    expect(evidenceReasonScope("critic_vs_execution")).toBe("reviews:write");
  });
});
