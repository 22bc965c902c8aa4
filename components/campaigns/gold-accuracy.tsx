import { Metric } from "@/components/agreement/metric";
import { SMALL_N } from "@/lib/reports/format";
import { languageName } from "@/lib/records/languages";

type Accuracy = { n: number; correct: number };

/** A gold accuracy with its n beside it; n below SMALL_N is flagged as a rough figure. */
function Rate({ n, correct }: Accuracy) {
  if (n === 0) return <Metric value={null} reason="no gold items labelled yet" />;
  return (
    <>
      <span className="tabular-nums">{((100 * correct) / n).toFixed(1)}%</span>{" "}
      <span
        className={n < SMALL_N ? "text-xs text-amber-700" : "text-xs text-slate-500"}
        title={n < SMALL_N ? `Only ${n} gold items: a rough figure` : `${correct} of ${n} gold items right`}
      >
        (n = {n})
      </span>
    </>
  );
}

/** An annotator's gold accuracy overall and per language (a verdict matching the gold one counts as correct). */
export function GoldAccuracy({ gold }: { gold: Accuracy & { byLanguage: (Accuracy & { language: string })[] } }) {
  return (
    <div>
      <Rate n={gold.n} correct={gold.correct} />
      {gold.byLanguage.length > 1 ? (
        <ul className="mt-0.5 text-xs text-slate-500">
          {gold.byLanguage.map((entry) => (
            <li key={entry.language}>
              {languageName(entry.language)}: <Rate n={entry.n} correct={entry.correct} />
            </li>
          ))}
        </ul>
      ) : gold.byLanguage.length === 1 ? (
        <p className="text-xs text-slate-500">{languageName(gold.byLanguage[0].language)}</p>
      ) : null}
    </div>
  );
}
