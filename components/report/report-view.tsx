import type { ReactNode } from "react";

import { AgreementChart } from "@/components/report/agreement-chart";
import { CategoryTable, DifficultyTable } from "@/components/report/breakdown-tables";
import { CategoryChart } from "@/components/report/category-chart";
import { LanguageTable } from "@/components/report/language-table";
import { languageName, sortedLanguages } from "@/components/report/report-format";
import { ValidityChart } from "@/components/report/validity-chart";
import { Card } from "@/components/ui/primitives";
import type { CampaignReport } from "@/lib/reports/types";

/** The body of a validity report (campaign or dataset): table, charts, breakdowns, then `downloads`. */
export function ReportView({ report, downloads }: { report: CampaignReport; downloads: ReactNode }) {
  const languages = sortedLanguages(report.byLanguage);
  const categoryLabels = Object.fromEntries(report.byCategory.map((category) => [category.key, category.label]));
  return (
    <>
      {report.pooled.labelled === 0 ? (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          Nothing is labelled yet: the figures fill in as annotators label items.
        </p>
      ) : null}
      <Card title="Validity by language">
        <LanguageTable
          byLanguage={report.byLanguage}
          pooled={report.pooled}
          macro={report.macro}
          overlap={report.campaign.overlap}
          categoryLabels={categoryLabels}
        />
      </Card>
      <p className="mt-2 text-sm text-slate-600" data-testid="report-flaky">
        {report.flaky.records === 0
          ? "No sampled record was found flaky"
          : `Flaky records (repeated runs gave different outcomes): ${report.flaky.records} — ${Object.entries(
              report.flaky.byLanguage,
            )
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([language, records]) => `${languageName(language)} ${records}`)
              .join(", ")}`}{" "}
        (counted beside the figures, not in them; checked only where a flaky check ran).
      </p>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 lg:col-span-2">
          <ValidityChart
            points={languages.map(([language, row]) => ({
              name: languageName(language),
              validity: row.validity,
              ci: row.ci,
              resolved: row.resolved,
            }))}
            pooled={report.pooled.validity}
          />
        </div>
        <CategoryChart
          languages={languages.map(([language]) => ({
            name: languageName(language),
            counts: report.categoriesByLanguage[language] ?? {},
          }))}
          categoryLabels={categoryLabels}
        />
        <AgreementChart
          points={languages.map(([language, row]) => ({
            name: languageName(language),
            alpha: row.alpha,
            kappa: row.humanCriticKappa,
          }))}
        />
      </div>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title="By difficulty" className="min-w-0">
          <DifficultyTable byDifficulty={report.byDifficulty} />
        </Card>
        <Card title="By error category" className="min-w-0">
          <CategoryTable byCategory={report.byCategory} invalidItems={report.pooled.resolved - report.pooled.valid} />
        </Card>
      </div>
      <div className="mt-4">{downloads}</div>
    </>
  );
}
