import type { RevealFigures } from "@/lib/metrics/reveal";
import { languageName } from "@/lib/records/languages";

import { formatNumber, formatPercent } from "./format";
import { Metric } from "./metric";

export type RevealData = {
  overall: RevealFigures;
  byLanguage: Record<string, RevealFigures>;
  byAnnotator: ({ userId: string; email: string; name: string | null; language: string } & RevealFigures)[];
};

/**
 * Blind campaigns: how often seeing a hidden signal (the critic, or the execution) flipped a verdict,
 * and agreement with it before against after the reveal — the anchoring effect — overall, per
 * language and per annotator and language.
 */
export function RevealTable({ reveal, signal }: { reveal: RevealData; signal: "critic" | "execution" }) {
  if (reveal.overall.labels === 0) return <p className="text-sm text-slate-500">No blind labels yet.</p>;
  const rows = [
    { key: "overall", who: "Everyone", language: "All", figures: reveal.overall },
    ...Object.entries(reveal.byLanguage).map(([language, figures]) => ({
      key: `lang-${language}`,
      who: "Everyone",
      language: languageName(language),
      figures,
    })),
    ...reveal.byAnnotator.map((row) => ({
      key: `${row.userId}-${row.language}`,
      who: row.name ?? row.email,
      language: languageName(row.language),
      figures: row,
    })),
  ];
  const head = "py-1 pr-3 text-right";
  return (
    <table className="min-w-full text-sm" aria-label={signal === "critic" ? "Critic reveal" : "Execution reveal"}>
      <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-3">
            Annotator
          </th>
          <th scope="col" className="py-1 pr-3">
            Language
          </th>
          <th scope="col" className={head} title={`Blind labels with a verdict given before the ${signal} was shown`}>
            Labels
          </th>
          <th scope="col" className={head} title={`Labels whose verdict changed after the ${signal} was shown`}>
            Flipped
          </th>
          <th scope="col" className={head} title={`Flips onto the ${signal}'s verdict`}>
            Toward {signal}
          </th>
          <th scope="col" className={head} title={`Share of labels agreeing with the ${signal}, before the reveal`}>
            Agree before
          </th>
          <th scope="col" className={head} title={`Share of labels agreeing with the ${signal}, after the reveal`}>
            Agree after
          </th>
          <th scope="col" className={head}>
            κ before
          </th>
          <th scope="col" className="py-1 text-right">
            κ after
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map(({ key, who, language, figures }) => (
          <tr key={key} data-testid={`reveal-${key}`}>
            <th scope="row" className="py-1.5 pr-3 text-left font-normal">
              {who}
            </th>
            <td className="py-1.5 pr-3">{language}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{figures.labels}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">
              {figures.flipped} (<Metric value={formatPercent(figures.flipRate)} />)
            </td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{figures.flippedTowardSignal}</td>
            <td className="py-1.5 pr-3 text-right">
              <Metric
                value={formatPercent(figures.agreementBefore)}
                reason={`undefined: no ${signal} verdict on these records`}
              />
            </td>
            <td className="py-1.5 pr-3 text-right">
              <Metric
                value={formatPercent(figures.agreementAfter)}
                reason={`undefined: no ${signal} verdict on these records`}
              />
            </td>
            <td className="py-1.5 pr-3 text-right">
              <Metric value={formatNumber(figures.kappaBefore)} />
            </td>
            <td className="py-1.5 text-right">
              <Metric value={formatNumber(figures.kappaAfter)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
