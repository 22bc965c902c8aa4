import { describe, expect, it } from "vitest";

import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";

import { filterCategories } from "./category-filter";

const categories = DEFAULT_CATEGORIES.map(({ key, label, description, invalidating }) => ({
  key,
  label,
  description,
  invalidating,
}));
const labels = (query: string) => filterCategories(categories, query).map((category) => category.label);

describe("filterCategories", () => {
  it("puts labels that start with the text first, then other label matches, then descriptions", () => {
    expect(labels("oth")[0]).toBe("Other");
    expect(labels("oth")).toContain("Incorrect test target");
    expect(labels("environ")).toEqual(["Environment dependence"]);
  });

  it("needs every word, in any field, and keeps taxonomy order within a rank", () => {
    expect(labels("test exec")).toEqual(["Non-executable test"]);
    expect(labels("")).toEqual(categories.map((category) => category.label));
    expect(labels("zzz")).toEqual([]);
  });
});
