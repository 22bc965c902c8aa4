import type { ActionResult } from "@/lib/actions/result";

// The server actions the workspace page hands its client components (app/(app)/campaigns/[id]/items/[itemId]/actions.ts).

type LabelSubmission = {
  itemId: string;
  valid: boolean;
  categories: string[];
  note?: string;
  testLine: number | null;
  needsReview: boolean;
  activeMs: number;
  baseRevision: number;
};
/** Saves a label; nextUrl is the next item to open, null when the label revealed a blind item's critic. */
export type SubmitLabelAction = (
  input: LabelSubmission,
) => Promise<ActionResult<{ revision: number; isCriticRevealed: boolean; nextUrl: string | null }>>;
export type SkipItemAction = (input: { itemId: string; reason: string }) => Promise<ActionResult<{ nextUrl: string }>>;
export type RenewLeaseAction = (input: { itemId: string }) => Promise<ActionResult<{ leaseExpiresAt: string }>>;
