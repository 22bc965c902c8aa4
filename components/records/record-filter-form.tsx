import Link from "next/link";

import { Button, Card, Input, Select } from "@/components/ui/primitives";
import { type EvidenceReason, WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import { languageName } from "@/lib/records/languages";
import type { DatasetFacets } from "@/lib/records/types";
import { OUTCOME_FILTER_LABELS, OUTCOME_FILTER_NAMES } from "@/lib/records/verification";
import type { RecordQuery } from "@/lib/validation/records";

/** The evidence filter's options, saying what each finds. */
const EVIDENCE_REASON_OPTIONS: Record<EvidenceReason, string> = {
  weak_tests: "Weak tests (mutation score below the threshold)",
  flaky: "Flaky (outcomes differ between runs)",
  unsolved: "Solved by no model",
  critic_vs_execution: "Critic and execution disagree",
};

/**
 * The record browser's filters, a GET form over the dataset page: language and difficulty from the
 * dataset's facets, critic, executable, outcome, the evidence reasons the viewer may find records by,
 * the weak-tests threshold and text in the questions.
 */
export function RecordFilterForm({
  dataset,
  filters,
  facets,
  evidenceReasons,
}: {
  dataset: string;
  filters: Omit<RecordQuery, "limit" | "cursor">;
  facets: DatasetFacets;
  /** The reasons the viewer may filter by (evidenceReasonScope). */
  evidenceReasons: readonly EvidenceReason[];
}) {
  return (
    <Card className="mb-4">
      <form className="flex flex-wrap items-end gap-3" role="search">
        <label className="text-sm">
          <span className="mb-1 block text-slate-600">Language</span>
          <Select name="language" defaultValue={filters.language ?? ""} aria-label="Language">
            <option value="">All</option>
            {facets.languages.map(({ language, count }) => (
              <option key={language} value={language}>
                {languageName(language)} ({count})
              </option>
            ))}
          </Select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-600">Difficulty</span>
          <Select name="difficulty" defaultValue={filters.difficulty ?? ""} aria-label="Difficulty">
            <option value="">All</option>
            {facets.difficulties.map((difficulty) => (
              <option key={difficulty} value={difficulty}>
                {difficulty}
              </option>
            ))}
          </Select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-600">Critic</span>
          <Select name="critic" defaultValue={filters.critic ?? ""} aria-label="Critic verdict">
            <option value="">All</option>
            <option value="pass">Passed</option>
            <option value="fail">Failed</option>
            <option value="none">No verdict</option>
          </Select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-600">Executable</span>
          <Select name="executable" defaultValue={filters.executable ?? ""} aria-label="Executable-valid">
            <option value="">All</option>
            <option value="valid">Passes its tests</option>
            <option value="failed">Fails its tests</option>
            <option value="unknown">Not verified</option>
            <option value="flaky">Flaky (outcomes differ between runs)</option>
          </Select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-600">Outcome</span>
          <Select name="outcome" defaultValue={filters.outcome ?? ""} aria-label="Verification outcome">
            <option value="">All</option>
            {OUTCOME_FILTER_NAMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {OUTCOME_FILTER_LABELS[outcome]}
              </option>
            ))}
          </Select>
        </label>
        <label className="max-w-full min-w-0 text-sm">
          <span className="mb-1 block text-slate-600">Look at</span>
          {/* Its longest option is wider than a phone: the select may shrink to the page. */}
          <Select name="evidence" defaultValue={filters.evidence ?? ""} aria-label="Look at" className="max-w-full">
            <option value="">All</option>
            {evidenceReasons.map((reason) => (
              <option key={reason} value={reason}>
                {EVIDENCE_REASON_OPTIONS[reason]}
              </option>
            ))}
          </Select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-600">Weak below</span>
          <Input
            name="weakBelow"
            type="number"
            min={0}
            max={1}
            step={0.05}
            defaultValue={filters.weakBelow ?? WEAK_TESTS_THRESHOLD}
            aria-label="Weak tests below mutation score"
            className="w-24"
          />
        </label>
        <label className="min-w-64 flex-1 text-sm">
          <span className="mb-1 block text-slate-600">Search in questions</span>
          <Input
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            placeholder="e.g. binary search"
            aria-label="Search in questions"
          />
        </label>
        <Button type="submit">Filter</Button>
        <Link
          href={`/datasets/${encodeURIComponent(dataset)}`}
          className="py-1.5 text-sm text-slate-600 hover:underline"
        >
          Clear
        </Link>
      </form>
    </Card>
  );
}
