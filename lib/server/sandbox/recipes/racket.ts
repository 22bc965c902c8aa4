import "server-only";

import { splitLines } from "./splice-helpers";
import { simpleRecipe } from "./simple";

function isLangLine(line: string): boolean {
  return line.trim().startsWith("#lang");
}

/** Splices Racket: the solution's first `#lang` line (default `#lang racket`), every other one dropped. */
export function spliceRacket(solution: string, test: string): string {
  const langLine = splitLines(solution).find(isLangLine)?.trim() ?? "#lang racket";
  const strip = (source: string) =>
    splitLines(source)
      .filter((line) => !isLangLine(line))
      .join("\n")
      .trimEnd();
  return `${langLine}\n\n${strip(solution)}\n\n${strip(test)}\n`;
}

export const racketRecipe = simpleRecipe({
  language: "racket",
  file: "test.rkt",
  interpreter: ["raco", "test"],
  splice: spliceRacket,
  failurePatterns: ["FAILURE", "ERROR"],
  env: { PLTUSERHOME: "/job" },
  commands: ["raco", "racket"],
  version: ["racket", "--version"],
  hello: {
    solution: "#lang racket\n(define (add a b) (+ a b))\n",
    test: "#lang racket\n(require rackunit)\n(check-equal? (add 1 2) 3)\n",
  },
});
