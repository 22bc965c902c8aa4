import "server-only";

import { DEFAULT_TIMEOUT_MS, type SandboxLanguage } from "@/lib/server/sandbox/types";

import { cppRecipe } from "./cpp";
import { csharpRecipe } from "./csharp";
import { dartRecipe } from "./dart";
import { goRecipe } from "./go";
import { javaRecipe } from "./java";
import { javascriptRecipe, typescriptRecipe } from "./javascript";
import { kotlinRecipe } from "./kotlin";
import { phpRecipe } from "./php";
import { racketRecipe } from "./racket";
import { rustRecipe } from "./rust";
import { scalaRecipe } from "./scala";
import { elixirRecipe, juliaRecipe, perlRecipe, pythonRecipe, rRecipe, rubyRecipe, shellRecipe } from "./simple";
import { swiftRecipe } from "./swift";
import type { Recipe } from "./types";

export type { JobFile, Recipe, StepOutcome, Switched } from "./types";

/** Every language's recipe, keyed by language id. */
export const RECIPES: Readonly<Record<SandboxLanguage, Recipe>> = {
  python: pythonRecipe,
  cpp: cppRecipe,
  java: javaRecipe,
  javascript: javascriptRecipe,
  go: goRecipe,
  shell: shellRecipe,
  csharp: csharpRecipe,
  dart: dartRecipe,
  elixir: elixirRecipe,
  julia: juliaRecipe,
  kotlin: kotlinRecipe,
  perl: perlRecipe,
  php: phpRecipe,
  racket: racketRecipe,
  r: rRecipe,
  ruby: rubyRecipe,
  rust: rustRecipe,
  scala: scalaRecipe,
  swift: swiftRecipe,
  typescript: typescriptRecipe,
};

/** The recipe of one language. */
export function getRecipe(language: SandboxLanguage): Recipe {
  return RECIPES[language];
}

/** Timeout of one step: the base (default 5 s) plus the language's allowance. */
export function stepTimeoutMs(language: SandboxLanguage, baseTimeoutMs: number = DEFAULT_TIMEOUT_MS): number {
  return baseTimeoutMs + RECIPES[language].timeoutAllowanceMs;
}
