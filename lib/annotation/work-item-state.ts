// Where an annotator stands with a workspace item: what the header says and which controls it offers.
// Pure, so the rule is tested without a browser.

/** leased: the lease runs; lease-ended: it expired or the campaign was paused, with no label yet; labelled; skipped. */
export type WorkItemState = "leased" | "lease-ended" | "labelled" | "skipped";

/**
 * The state of the actor's hold on an item. A label wins over everything (it can be revised at any
 * time); without one, a skip is final; otherwise the lease runs until it expires or a pause ends it,
 * after which the item is still theirs to label while a slot is free, or to skip.
 */
export function workItemState({
  assignment,
  hasLabel,
  now,
}: {
  assignment: { status: string; leaseExpiresAt: Date } | null;
  hasLabel: boolean;
  now: Date;
}): WorkItemState {
  if (hasLabel) return "labelled";
  if (assignment?.status === "SKIPPED") return "skipped";
  if (assignment?.status === "ACTIVE" && assignment.leaseExpiresAt > now) return "leased";
  return "lease-ended";
}

/** Whether the item can still be skipped: only while it is held and unlabelled. */
export function canSkip(state: WorkItemState): boolean {
  return state === "leased" || state === "lease-ended";
}
