import { describe, expect, it } from "vitest";

import { isSetupCode, setupCodeFor } from "./setup-code";

describe("setup code", () => {
  it("is 16 unambiguous characters in groups of four, fixed by the secret", () => {
    const code = setupCodeFor("secret one");
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(setupCodeFor("secret one")).toBe(code);
    expect(setupCodeFor("secret two")).not.toBe(code);
  });

  it("accepts the code typed loosely and refuses anything else", () => {
    const code = setupCodeFor("s");
    expect(isSetupCode(code, "s")).toBe(true);
    expect(isSetupCode(` ${code.toLowerCase().replaceAll("-", " ")} `, "s")).toBe(true);
    expect(isSetupCode(setupCodeFor("other"), "s")).toBe(false);
    expect(isSetupCode(code.slice(0, -1), "s")).toBe(false);
    expect(isSetupCode("", "s")).toBe(false);
  });
});
