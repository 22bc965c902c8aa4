import { describe, expect, it } from "vitest";

import { passwordSchema } from "./auth";

describe("passwordSchema", () => {
  it("accepts 10 characters up to 72 bytes", () => {
    expect(passwordSchema.safeParse("a".repeat(10)).success).toBe(true);
    expect(passwordSchema.safeParse("a".repeat(72)).success).toBe(true);
    expect(passwordSchema.safeParse("é".repeat(36)).success).toBe(true);
  });

  it("refuses what bcrypt would silently cut: more than 72 bytes, counted in UTF-8", () => {
    expect(passwordSchema.safeParse("a".repeat(73)).success).toBe(false);
    // 37 characters, 74 bytes.
    const accented = passwordSchema.safeParse("é".repeat(37));
    expect(accented.success).toBe(false);
    expect(accented.error?.issues[0].message).toMatch(/72 bytes/);
  });

  it("refuses fewer than 10 characters", () => {
    expect(passwordSchema.safeParse("a".repeat(9)).success).toBe(false);
  });
});
