import { z } from "zod";

import { LANGUAGES, type Language } from "./languages";

/**
 * Harness profiles a dataset may choose per language instead of AutoCodeBench's rules (the default),
 * with the language each runs. The profiles themselves (splice, commands, classifier) are in
 * lib/server/sandbox/recipes/profiles.ts; docs/sandbox.md describes each.
 */
export const HARNESS_PROFILE_LANGUAGES = {
  "java-main": "java",
  "javascript-exit-code": "javascript",
  "javascript-silent": "javascript",
  "typescript-exit-code": "typescript",
  "go-testify": "go",
  "cpp-openssl": "cpp",
} as const satisfies Record<string, Language>;

/** A harness profile's name. */
export type HarnessProfile = keyof typeof HARNESS_PROFILE_LANGUAGES;

const HARNESS_PROFILE_NAMES = Object.keys(HARNESS_PROFILE_LANGUAGES) as [HarnessProfile, ...HarnessProfile[]];

/** One profile name, as a run request or a form carries it. */
export const harnessProfileSchema = z.enum(HARNESS_PROFILE_NAMES);

/**
 * A dataset's choice, `{language: profile}`; a language left out runs AutoCodeBench's rules. A
 * profile for another language than its key is refused, naming the key.
 */
export const harnessChoiceSchema = z
  .partialRecord(z.enum(LANGUAGES), harnessProfileSchema)
  .superRefine((choice, context) => {
    for (const [language, profile] of Object.entries(choice)) {
      if (profile !== undefined && HARNESS_PROFILE_LANGUAGES[profile] !== language)
        context.addIssue({
          code: "custom",
          path: [language],
          message: `${profile} runs ${HARNESS_PROFILE_LANGUAGES[profile]}, not ${language}`,
        });
    }
  });

/** A dataset's harness choice. */
export type HarnessChoice = z.infer<typeof harnessChoiceSchema>;

/** The profile a dataset chose for a language, or null for AutoCodeBench's rules; a stored value that is not a choice reads as none. */
export function profileFor(stored: unknown, language: string): HarnessProfile | null {
  const parsed = harnessChoiceSchema.safeParse(stored ?? {});
  if (!parsed.success) return null;
  return (parsed.data as Record<string, HarnessProfile | undefined>)[language] ?? null;
}
