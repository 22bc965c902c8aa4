import { describe, expect, it } from "vitest";

import { parseRecordQueryForPage, recordQuerySchema } from "./records";

describe("record query", () => {
  it("treats the empty values a filter form sends as 'any'", () => {
    const parsed = recordQuerySchema.parse({
      language: "python",
      difficulty: "",
      critic: "",
      executable: "",
      q: "",
      cursor: "",
    });
    expect(parsed).toEqual({ language: "python", limit: 50 });
  });

  it("still rejects values no filter knows", () => {
    expect(recordQuerySchema.safeParse({ difficulty: "impossible" }).success).toBe(false);
  });

  it("for a page, applies the valid filters and reports each invalid one", () => {
    const { query, errors } = parseRecordQueryForPage({ language: "python", difficulty: "impossible", critic: "pass" });
    expect(query).toMatchObject({ language: "python", critic: "pass" });
    expect(query.difficulty).toBeUndefined();
    expect(Object.keys(errors)).toEqual(["difficulty"]);
  });

  it("filters by verification outcome, and refuses an outcome it does not know (a 4xx, not a 500)", () => {
    expect(recordQuerySchema.parse({ outcome: "time_limit" })).toMatchObject({ outcome: "time_limit" });
    expect(recordQuerySchema.parse({ outcome: "" }).outcome).toBeUndefined();
    expect(recordQuerySchema.safeParse({ outcome: "TIME_LIMIT_EXCEEDED" }).success).toBe(false);
  });
});
