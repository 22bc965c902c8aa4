// Language names and order for report tables and charts. No dependencies: client charts import it.
import { LANGUAGE_LABELS, type Language } from "@/lib/records/languages";

/** A language's display name ("C++" for cpp). */
export function languageName(language: string): string {
  return LANGUAGE_LABELS[language as Language] ?? language;
}

/** Languages sorted by their display name, as in every report table. */
export function sortedLanguages<T>(byLanguage: Record<string, T>): [string, T][] {
  return Object.entries(byLanguage).sort(([a], [b]) => languageName(a).localeCompare(languageName(b)));
}
