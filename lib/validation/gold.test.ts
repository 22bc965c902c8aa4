import { describe, expect, it } from "vitest";

import { campaignSettingsSchema, createCampaignSchema } from "./campaigns";
import { goldAnswerSchema } from "./gold";

describe("gold validation", () => {
  it("takes a gold share from 0 to 0.5 only", () => {
    const base = { dataset: "d", name: "c" };
    expect(createCampaignSchema.parse({ ...base, goldShare: 0.5 }).goldShare).toBe(0.5);
    expect(createCampaignSchema.safeParse({ ...base, goldShare: 0.6 }).success).toBe(false);
    expect(createCampaignSchema.safeParse({ ...base, goldShare: -0.1 }).success).toBe(false);
    expect(campaignSettingsSchema.parse({ goldShare: 0 })).toEqual({ goldShare: 0 });
  });

  it("refuses a note PostgreSQL cannot store and unknown-looking category keys", () => {
    expect(goldAnswerSchema.safeParse({ valid: false, categories: [], note: "a\u0000b" }).success).toBe(false);
    expect(goldAnswerSchema.safeParse({ valid: false, categories: ["Not A Key"] }).success).toBe(false);
    expect(goldAnswerSchema.parse({ valid: true, note: "  " })).toEqual({ valid: true, categories: [], note: null });
  });
});
