// The visibility rules as data: what each role's where-clauses say, without a database (the
// integration tests in visibility.int.test.ts check them against real rows).
import { describe, expect, it } from "vitest";

import {
  criticAsSeen,
  criticHidingItemWhere,
  isFirstLabelPreReveal,
  visibleDatasetWhere,
  visibleRecordWhere,
} from "@/lib/server/auth/visibility";

const annotator = { id: "u-ann", role: "ANNOTATOR" as const, languages: ["python", "cpp"] };
const reviewer = { id: "u-rev", role: "REVIEWER" as const, languages: ["python"] };
const admin = { id: "u-adm", role: "ADMIN" as const, languages: [] };

describe("critic visibility", () => {
  it("hides from an annotator every blind item in their languages they have neither labelled nor skipped", () => {
    expect(criticHidingItemWhere(annotator)).toEqual({
      campaign: { blind: true },
      language: { in: ["python", "cpp"] },
      assignments: { none: { userId: "u-ann", status: { in: ["SUBMITTED", "SKIPPED"] } } },
    });
  });

  it("hides from reviewers and admins only the blind items they hold unlabelled (active or expired lease)", () => {
    for (const actor of [reviewer, admin]) {
      expect(criticHidingItemWhere(actor)).toEqual({
        campaign: { blind: true },
        assignments: { some: { userId: actor.id, status: { in: ["ACTIVE", "EXPIRED"] } } },
      });
    }
  });

  it("drops the whole critic when hidden and keeps it otherwise", () => {
    const critic = { overallPass: false, reasoning: "why" };
    expect(criticAsSeen(critic, true)).toBeNull();
    expect(criticAsSeen(critic, false)).toBe(critic);
    expect(criticAsSeen(null, false)).toBeNull();
  });

  it("keeps a first blind label as pre-reveal only for annotators, who never saw the critic before claiming", () => {
    expect(isFirstLabelPreReveal(annotator)).toBe(true);
    expect(isFirstLabelPreReveal(reviewer)).toBe(false);
    expect(isFirstLabelPreReveal(admin)).toBe(false);
  });
});

describe("record scope", () => {
  it("limits annotators to datasets with a campaign in one of their languages (not one being deleted), and nobody else", () => {
    const campaign = { languages: { hasSome: ["python", "cpp"] }, status: { not: "DELETING" } };
    expect(visibleDatasetWhere(annotator)).toEqual({ campaigns: { some: campaign } });
    expect(visibleRecordWhere(annotator)).toEqual({ dataset: { campaigns: { some: campaign } } });
    expect(visibleDatasetWhere(reviewer)).toEqual({});
    expect(visibleRecordWhere(admin)).toEqual({});
  });
});
