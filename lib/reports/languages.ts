// Language names and order for report tables and charts. No dependencies: client charts import it.
import { languageName } from "@/lib/records/languages";

export { languageName };

/** Languages sorted by their display name, as in every report table. */
export function sortedLanguages<T>(byLanguage: Record<string, T>): [string, T][] {
  return Object.entries(byLanguage).sort(([a], [b]) => languageName(a).localeCompare(languageName(b)));
}
