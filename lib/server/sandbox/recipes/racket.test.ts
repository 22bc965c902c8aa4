import { describe, expect, it } from "vitest";

import { racketRecipe, spliceRacket } from "./racket";

describe("spliceRacket", () => {
  it("keeps the solution's first #lang line and drops every other", () => {
    const program = spliceRacket(
      "#lang racket/base\n(define x 1)",
      "#lang racket\n(require rackunit)\n(check-equal? x 1)",
    );
    expect(program).toBe("#lang racket/base\n\n(define x 1)\n\n(require rackunit)\n(check-equal? x 1)\n");
  });

  it("defaults to #lang racket", () => {
    expect(spliceRacket("(define x 1)", "x").startsWith("#lang racket\n")).toBe(true);
  });
});

describe("racket classification", () => {
  it("treats rackunit FAILURE and ERROR output as WRONG_ANSWER", () => {
    const run = (stderr: string) => ({ exitCode: 0, timedOut: false, stdout: "", stderr });
    expect(
      racketRecipe.classify({ syntaxError: false, compile: null, run: run("--------------------\nFAILURE\n") }),
    ).toBe("WRONG_ANSWER");
    expect(racketRecipe.classify({ syntaxError: false, compile: null, run: run("") })).toBe("PASSED");
    expect(racketRecipe.run.argv).toEqual(["raco", "test", "test.rkt"]);
  });
});
