import type { z } from "zod";

import type { Action } from "@/lib/actions/result";
import type { itemIdSchema, labelItemSchema, skipItemSchema } from "@/lib/validation/campaigns";

// The server actions the workspace page hands its client components (app/(app)/campaigns/[id]/items/[itemId]/actions.ts).

/** Saves a label; nextUrl is the next item to open, null when the label revealed a blind item's critic. */
export type SubmitLabelAction = Action<
  z.input<typeof labelItemSchema>,
  { revision: number; isCriticRevealed: boolean; nextUrl: string | null }
>;
export type SkipItemAction = Action<z.input<typeof skipItemSchema>, { nextUrl: string }>;
export type RenewLeaseAction = Action<z.input<typeof itemIdSchema>, { leaseExpiresAt: string }>;
