import { describe, expect, it } from "vitest";

import { canSkip, workItemState } from "./work-item-state";

const now = new Date("2026-12-01T12:00:00Z");
const later = new Date("2026-12-01T12:30:00Z");
const earlier = new Date("2026-12-01T11:30:00Z");

describe("workItemState", () => {
  it("is labelled only when the actor has a label", () => {
    expect(workItemState({ assignment: { status: "SUBMITTED", leaseExpiresAt: earlier }, hasLabel: true, now })).toBe(
      "labelled",
    );
    // A pause ended the lease (EXPIRED) and nobody labelled: the lease ended, nothing was labelled.
    expect(workItemState({ assignment: { status: "EXPIRED", leaseExpiresAt: earlier }, hasLabel: false, now })).toBe(
      "lease-ended",
    );
  });

  it("tells a running lease from one that lapsed but was not yet collected", () => {
    expect(workItemState({ assignment: { status: "ACTIVE", leaseExpiresAt: later }, hasLabel: false, now })).toBe(
      "leased",
    );
    expect(workItemState({ assignment: { status: "ACTIVE", leaseExpiresAt: earlier }, hasLabel: false, now })).toBe(
      "lease-ended",
    );
  });

  it("keeps a skip final, and offers Skip while the item is held or its lease ended", () => {
    expect(workItemState({ assignment: { status: "SKIPPED", leaseExpiresAt: later }, hasLabel: false, now })).toBe(
      "skipped",
    );
    expect(canSkip("leased")).toBe(true);
    expect(canSkip("lease-ended")).toBe(true);
    expect(canSkip("labelled")).toBe(false);
    expect(canSkip("skipped")).toBe(false);
  });
});
