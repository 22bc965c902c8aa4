// Critic configurations and runs: the input schemas shared by the admin form, its actions and the CLI.
import { z } from "zod";

import { normalizeLanguage } from "@/lib/records/languages";
import { CRITIC_KEY_VARIABLE_MESSAGE, isCriticKeyVariable } from "@/lib/critics/key-variable";
import { unknownPlaceholders } from "@/lib/critics/template";

const text = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\0]*$/, "must not contain NUL characters");

const criticNameSchema = text(100)
  .trim()
  .min(1, "give the critic a name")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "letters, digits, spaces, dots, dashes and underscores")
  .refine((name) => name.toLowerCase() !== "imported", '"imported" is the built-in critic of the record files');

const criticTemplateSchema = text(100_000)
  .refine((template) => template.trim() !== "", "the prompt template is empty")
  .superRefine((template, context) => {
    const unknown = unknownPlaceholders(template);
    if (unknown.length > 0)
      context.addIssue({
        code: "custom",
        message: `unknown placeholder${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `{{${name}}}`).join(", ")}: use {{question}}, {{solution}}, {{demo_test}}, {{full_test}}, {{language}}, {{rules}}`,
      });
  });

/** A critic's definition; saving one under an existing name updates it (a new prompt version when the prompt changed and was used). */
export const saveCriticSchema = z.object({
  name: criticNameSchema,
  baseUrl: z
    .string()
    .trim()
    .url("an http(s) URL, e.g. https://api.openai.com/v1")
    .refine((url) => /^https?:\/\//.test(url), "an http(s) URL"),
  model: text(200).trim().min(1, "name the model"),
  // Only variables the operator set aside for critics: any other would send the operator's secrets.
  apiKeyEnv: z.string().trim().refine(isCriticKeyVariable, CRITIC_KEY_VARIABLE_MESSAGE).optional(),
  // Stored sealed and never shown again; empty keeps the stored one.
  apiKey: text(1000).optional(),
  temperature: z.number().min(0).max(2).default(0),
  maxTokens: z.number().int().min(16).max(200_000).default(2048),
  concurrency: z.number().int().min(1).max(64).default(4),
  timeoutMs: z.number().int().min(1000).max(600_000).default(60_000),
  template: criticTemplateSchema.optional(),
});
export type SaveCriticInput = z.infer<typeof saveCriticSchema>;

const language = z
  .string()
  .transform((value, context) => {
    const normalized = normalizeLanguage(value);
    if (!normalized) {
      context.addIssue({ code: "custom", message: `unknown language "${value}"` });
      return z.NEVER;
    }
    return normalized;
  })
  .optional();

/** What a critic run covers: a dataset, optionally one language of it or one campaign's sample. */
export const startCriticRunSchema = z.object({
  critic: criticNameSchema,
  dataset: text(200).min(1),
  language,
  campaignId: text(100).min(1).optional(),
});

export const criticRunActionSchema = z.object({
  runId: text(100).min(1),
  action: z.enum(["pause", "resume", "cancel"]),
});
