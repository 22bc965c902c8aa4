import { formatNumber } from "@/components/agreement/format";
import { Metric } from "@/components/agreement/metric";
import { Card } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import type { CalibrationFigures, CriticVersionCalibration, DatasetCalibration } from "@/lib/critics/types";

function WithInterval({ figure }: { figure: CalibrationFigures["precision"] }) {
  const value = formatNumber(figure.value);
  return (
    <span>
      <Metric value={value} />
      {figure.interval ? (
        <span className="ml-1 text-xs text-slate-500">
          [{figure.interval[0].toFixed(2)}, {figure.interval[1].toFixed(2)}]
        </span>
      ) : null}
    </span>
  );
}

function source({ provenance }: CalibrationFigures): string {
  if (provenance.blind === 0 && provenance.open === 0) return "—";
  if (provenance.open === 0) return "blind";
  if (provenance.blind === 0) return "open";
  return `${provenance.blind} blind · ${provenance.open} open`;
}

const HEAD = "py-1 pr-3 text-right";

function FigureCells({ figures }: { figures: CalibrationFigures }) {
  return (
    <>
      <td className="py-1.5 pr-3 text-right tabular-nums">{figures.n}</td>
      <td className="py-1.5 pr-3 text-right">
        <WithInterval figure={figures.precision} />
      </td>
      <td className="py-1.5 pr-3 text-right">
        <WithInterval figure={figures.recall} />
      </td>
      <td className="py-1.5 pr-3 text-right">
        <Metric value={formatNumber(figures.f1)} />
      </td>
      <td className="py-1.5 pr-3 text-right">
        <Metric value={formatNumber(figures.kappa)} />
      </td>
      <td className="py-1.5 pr-3 text-right">
        <WithInterval figure={figures.accuracy} />
      </td>
      <td className="py-1.5 text-xs text-slate-600">{source(figures)}</td>
    </>
  );
}

function FigureHead({ first }: { first: string }) {
  return (
    <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
      <tr>
        <th scope="col" className="py-1 pr-3">
          {first}
        </th>
        <th scope="col" className={HEAD}>
          n
        </th>
        <th
          scope="col"
          className={HEAD}
          title="Of the records the critic failed, the share people found invalid (95% Wilson interval)"
        >
          Precision
        </th>
        <th scope="col" className={HEAD} title="Of the records people found invalid, the share the critic failed">
          Recall
        </th>
        <th scope="col" className={HEAD}>
          F1
        </th>
        <th scope="col" className={HEAD} title="Cohen's κ between the critic and people">
          κ
        </th>
        <th scope="col" className={HEAD}>
          Accuracy
        </th>
        <th
          scope="col"
          className="py-1"
          title="Whether people labelled these items in blind campaigns (critic hidden until their first label) or open ones"
        >
          Labels from
        </th>
      </tr>
    </thead>
  );
}

/** The ranking: one row per critic version on "invalid", best first. */
export function CalibrationRanking({ calibration }: { calibration: DatasetCalibration }) {
  if (calibration.versions.length === 0)
    return (
      <p className="text-sm text-slate-500">No critic version has a verdict on a record with a final label yet.</p>
    );
  // Its own scroller: eight figure columns do not fit a phone, and the page must not scroll sideways.
  // Each scroller here is `relative`, so the screen-reader text of a missing figure (absolutely
  // placed) is placed and clipped inside it rather than widening the page.
  return (
    <div className="relative overflow-x-auto">
      <table className="min-w-full text-sm" aria-label="Critic ranking">
        <FigureHead first="Critic version" />
        <tbody className="divide-y divide-slate-100">
          {calibration.versions.map((version, index) => (
            <tr key={version.versionId} data-testid="ranking-row">
              <th scope="row" className="py-1.5 pr-3 text-left font-medium">
                {index + 1}. {version.critic} v{version.version}
                {version.model ? (
                  <span className="ml-1 text-xs font-normal text-slate-500">{version.model}</span>
                ) : null}
                {version.unreadable > 0 ? (
                  <span className="ml-1 text-xs font-normal text-amber-700">
                    {version.unreadable} unreadable left out
                  </span>
                ) : null}
              </th>
              <FigureCells figures={version.invalid} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ReliabilityCurve({ version }: { version: CriticVersionCalibration }) {
  const { points, ece, n } = version.reliability;
  if (n === 0)
    return <p className="text-sm text-slate-500">This version states no confidence: no reliability curve.</p>;
  const size = 160;
  return (
    <div className="flex flex-wrap items-start gap-4">
      <svg
        width={size}
        height={size}
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={`Reliability curve of ${version.critic} v${version.version}`}
      >
        <rect x="0" y="0" width={size} height={size} fill="white" stroke="#cbd5e1" />
        <line x1="0" y1={size} x2={size} y2="0" stroke="#cbd5e1" strokeDasharray="4 3" />
        <polyline
          fill="none"
          stroke="#4f46e5"
          strokeWidth="2"
          points={points.map((point) => `${point.meanConfidence * size},${size - point.accuracy * size}`).join(" ")}
        />
        {points.map((point) => (
          <circle
            key={point.bin}
            cx={point.meanConfidence * size}
            cy={size - point.accuracy * size}
            r={2 + Math.min(4, Math.sqrt(point.n))}
            fill="#4f46e5"
          />
        ))}
      </svg>
      <div className="text-sm">
        <p>
          Expected calibration error <span className="font-medium tabular-nums">{formatNumber(ece)}</span> over {n}{" "}
          verdicts that state a confidence.
        </p>
        <p className="text-xs text-slate-500">
          Stated confidence (x) against the share of verdicts that were right (y); the diagonal is perfect calibration.
        </p>
      </div>
    </div>
  );
}

/** One version broken down by language and by rule, with its rule wrong most often per language. */
export function VersionBreakdown({
  version,
  categoryLabels,
}: {
  version: CriticVersionCalibration;
  categoryLabels: Record<string, string>;
}) {
  return (
    <Card title={`${version.critic} v${version.version}`}>
      <div className="space-y-5">
        <p className="text-xs text-slate-500">
          Blind campaigns only: n {version.blindOnly.n}, κ {formatNumber(version.blindOnly.kappa) ?? "—"}, F1{" "}
          {formatNumber(version.blindOnly.f1) ?? "—"}.
        </p>
        <div className="relative overflow-x-auto">
          <h3 className="mb-1 text-sm font-semibold text-slate-800">Per language, for “invalid”</h3>
          <table className="min-w-full text-sm" aria-label={`By language, ${version.critic} v${version.version}`}>
            <FigureHead first="Language" />
            <tbody className="divide-y divide-slate-100">
              {Object.entries(version.byLanguage).map(([language, figures]) => (
                <tr key={language}>
                  <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                    {languageName(language)}
                    {version.mostWrongRule[language] ? (
                      <span
                        className="ml-1 text-xs text-amber-700"
                        title="the mapped rule whose verdicts disagree with people most often"
                      >
                        most often wrong: {version.mostWrongRule[language]!.rule} (
                        {version.mostWrongRule[language]!.wrong} of {version.mostWrongRule[language]!.n})
                      </span>
                    ) : null}
                  </th>
                  <FigureCells figures={figures} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="relative overflow-x-auto">
          <h3 className="mb-1 text-sm font-semibold text-slate-800">
            Per rule: the rule failed against the category people chose
          </h3>
          {version.byRule.length === 0 ? (
            <p className="text-sm text-slate-500">No category of these campaigns is mapped to a critic rule.</p>
          ) : (
            <table className="min-w-full text-sm" aria-label={`By rule, ${version.critic} v${version.version}`}>
              <FigureHead first="Rule (category)" />
              <tbody className="divide-y divide-slate-100">
                {version.byRule.map((rule) => (
                  <tr key={rule.rule}>
                    <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                      {rule.rule}{" "}
                      <span className="text-xs text-slate-500">
                        ({rule.categories.map((key) => categoryLabels[key] ?? key).join(", ")})
                      </span>
                    </th>
                    <FigureCells figures={rule} />
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div>
          <h3 className="mb-1 text-sm font-semibold text-slate-800">Reliability</h3>
          <ReliabilityCurve version={version} />
        </div>
      </div>
    </Card>
  );
}
