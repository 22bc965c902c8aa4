import { describe, expect, it } from "vitest";

import { createCampaignSchema } from "./campaigns";

const valid = { dataset: "demo", name: "Round 1" };

/** Every message the campaign form would show for a body. */
function messages(body: Record<string, unknown>): string[] {
  const parsed = createCampaignSchema.safeParse({ ...valid, ...body });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

describe("createCampaignSchema messages", () => {
  it("says in a sentence what the campaign form got wrong, never zod's own wording", () => {
    expect(messages({ languages: [] })).toEqual(["Choose at least one language."]);
    expect(messages({ categories: [] })).toEqual(["Keep at least one error category."]);
    const bad = [
      { name: "" },
      { dataset: "" },
      { perLanguage: 0 },
      { perLanguage: 1.5 },
      { overlap: 0 },
      { overlap: 11 },
      { agreementFraction: 2 },
      { leaseMinutes: 0 },
      { leaseMinutes: 5000 },
      { categories: [{ key: "ok", label: "", invalidating: true }] },
      { categories: [{ key: "ok", label: "x".repeat(61), invalidating: true }] },
    ];
    for (const body of bad) {
      const said = messages(body);
      expect(said.length, JSON.stringify(body)).toBeGreaterThan(0);
      for (const message of said) {
        expect(message, JSON.stringify(body)).not.toMatch(/too (small|big)|expected|invalid input|>=|<=/i);
        expect(message, JSON.stringify(body)).toMatch(/^[A-Z].*\.$/);
      }
    }
  });
});
