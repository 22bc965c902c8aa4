// The release's README.md: a dataset card in the Hugging Face convention (YAML front matter naming
// the data files as configs and the size category), then the counts, the validity table and the
// method disclosure. Pure and deterministic: it reads only what the release stored when it was cut.
import { reportToMarkdown } from "@/lib/reports/format";
import { languageName, sortedLanguages } from "@/lib/reports/languages";

import type { ReleaseDisclosure, ReleaseSummary } from "./types";
import { countOf } from "@/lib/format/count";

/** The Hugging Face size category of a dataset of `n` records (`n<1K`, `1K<n<10K`, …). */
export function sizeCategory(n: number): string {
  const bounds: [number, string][] = [
    [1e3, "1K"],
    [1e4, "10K"],
    [1e5, "100K"],
    [1e6, "1M"],
    [1e7, "10M"],
    [1e8, "100M"],
    [1e9, "1B"],
  ];
  let lower: string | null = null;
  for (const [bound, label] of bounds) {
    if (n < bound) return lower ? `${lower}<n<${label}` : `n<${label}`;
    lower = label;
  }
  return "n>1B";
}

const percent = (value: number | null) => (value === null ? "—" : `${(100 * value).toFixed(1)}%`);
const plural = countOf;

function frontMatter(release: ReleaseSummary): string {
  // JSON strings are YAML double-quoted strings: any dataset name stays one scalar.
  return [
    "---",
    `pretty_name: ${JSON.stringify(`${release.dataset} ${release.name}`)}`,
    "configs:",
    "  - config_name: default",
    "    data_files:",
    "      - split: test",
    "        path: data.jsonl",
    "  - config_name: excluded",
    "    data_files:",
    "      - split: test",
    "        path: excluded.jsonl",
    "size_categories:",
    `  - ${sizeCategory(release.records)}`,
    "task_categories:",
    "  - text-generation",
    "tags:",
    "  - code",
    "  - verity",
    "---",
  ].join("\n");
}

function countsTable(release: ReleaseSummary): string {
  const rows = sortedLanguages(release.byLanguage).map(
    ([language, counts]) =>
      `| ${languageName(language)} | ${counts.records} | ${counts.revised} | ${counts.excluded} |`,
  );
  return [
    "| Language | Records | Of which revised | Excluded |",
    "|---|---|---|---|",
    ...rows,
    `| All | ${release.records} | ${release.revised} | ${release.excluded} |`,
  ].join("\n");
}

/** Whether the labels' authors saw the critic, from what each was shown (the pre-reveal labels). */
function criticSeen({ criticHidden, criticShown }: NonNullable<ReleaseSummary["disclosure"]["labels"]>): string {
  const total = criticHidden + criticShown;
  if (total === 0) return "no labels";
  if (criticShown === 0)
    return `no — each of the ${plural(total, "label")} was given before its author was shown the LLM critic's verdict (blind campaigns, and open campaigns over records a blind campaign also holds)`;
  if (criticHidden === 0)
    return `yes — the LLM critic's verdict was shown while each of the ${plural(total, "label")} was given`;
  return `for ${criticShown} of ${plural(total, "label")}; the other ${criticHidden} were given before their author was shown the LLM critic's verdict`;
}

function disclosure(release: ReleaseSummary): string {
  const { disclosure: method, validity } = release;
  const { annotatorsPerItem: per } = method;
  const blind = method.campaigns.filter((campaign) => campaign.blind);
  const lines = [
    `- **Annotators per item**: ${per.mean === null ? "no labelled items" : `${per.mean.toFixed(2)} on average (min ${per.min}, max ${per.max}) over ${plural(per.items, "labelled item")}`}.`,
    `- **Saw the critic before labelling**: ${
      method.labels
        ? criticSeen(method.labels)
        : method.campaigns.length === 0
          ? "no campaign"
          : blind.length === method.campaigns.length
            ? "no — every campaign was blind: annotators gave their label before the LLM critic's verdict and other records' evidence were shown"
            : blind.length === 0
              ? "yes — no campaign was blind: the LLM critic's verdict and the execution evidence were shown while labelling"
              : `in ${method.campaigns.length - blind.length} of ${plural(method.campaigns.length, "campaign")} (blind: ${blind.map((campaign) => campaign.name).join(", ")})`
    }.`,
    `- **Gold share**: ${method.campaigns.length ? method.campaigns.map((campaign) => `${campaign.name} ${percent(campaign.goldShare)}`).join("; ") : "—"} (gold items measure annotators and count in no figure).`,
    `- **Aggregation rule**: ${method.campaigns.length ? method.campaigns.map((campaign) => `${campaign.name}: ${campaign.finalRule}, overlap ${campaign.overlap}`).join("; ") : "—"}. ${validity.crossCampaignRule}`,
    `- **Repairs**: ${plural(method.revisions.accepted, "revision")} accepted, ${method.revisions.rejected} rejected, ${method.revisions.waiting} waiting. A revision is accepted only when a second person, not its author, labels the revised record valid without seeing the author's reason or label.`,
    `- **Sandbox**: backend ${method.sandbox.backends}.`,
    ...(method.sandbox.inconclusive
      ? [
          `- **Inconclusive execution**: ${plural(method.sandbox.inconclusive, "record")} timed out in a way a busy machine could explain, even run again alone; their execution counts as not known, never as failing.`,
        ]
      : []),
    ...environmentLines(method.sandbox),
  ];
  const toolchains = method.sandbox.toolchains.length
    ? [
        "",
        "| Language | Backend | Toolchain | Runs | Reference sandbox |",
        "|---|---|---|---|---|",
        ...method.sandbox.toolchains.map(
          (row) =>
            `| ${languageName(row.language)} | ${row.backend} | ${row.toolchain ?? "unknown"} | ${row.runs} | ${method.sandbox.reference.find((reference) => reference.language === row.language)?.label ?? "—"} |`,
        ),
      ]
    : ["", "No record of the release was run in the sandbox."];
  return [...lines, ...toolchains].join("\n");
}

/** README.md of a release folder. */
export function releaseCard(release: ReleaseSummary): string {
  const { rule } = release;
  const sections = [
    frontMatter(release),
    "",
    `# ${release.dataset} — release ${release.name}`,
    "",
    `Cut on ${release.createdAt} by Verity. ${plural(release.records, "record")} in \`data.jsonl\` (the input format; each line's \`verification\` object says which record revision it is and why it is in), ${plural(release.excluded, "record")} left out in \`excluded.jsonl\` with the reason. \`manifest.json\` holds the sha256 of every file.`,
    "",
    "## Revised records",
    "",
    release.revised === 0
      ? "No record is included at a revision after its import."
      : release.revised === 1
        ? "1 record is included at a revision after its import: repaired (statement, solution or tests), then accepted by a blind second check. Its line carries `verification.revision` > 1 and `verification.revised: true`."
        : `${plural(release.revised, "record")} are included at a revision after their import: repaired (statement, solution or tests), then accepted by a blind second check. Their lines carry \`verification.revision\` > 1 and \`verification.revised: true\`.`,
    "",
    countsTable(release),
    "",
    "## Selection rule",
    "",
    rule.description,
    "",
    "## Validity",
    "",
    `Validity of the labelled records of the dataset (valid / resolved, Wilson 95% interval), with the critic's pass rate, the executable-valid rate and agreement (Cohen's κ human–critic, Krippendorff's α between annotators), over the campaigns ${validity(release)}.`,
    "",
    ...leftOutOfRates(release),
    reportToMarkdown(release.validity).trimEnd(),
    "",
    "## Method disclosure",
    "",
    disclosure(release),
    "",
  ];
  return sections.join("\n");
}

/** The suspicion-ordered campaigns the rates leave out, in a sentence; nothing when there are none. */
function leftOutOfRates(release: ReleaseSummary): string[] {
  const leftOut = release.validity.leftOut;
  if (!leftOut?.campaigns.length) return [];
  return [
    `Left out of these rates: ${leftOut.campaigns.join(", ")} (${plural(leftOut.labelledItems, "labelled item")}), ordered by suspicion for cleaning, so their items are no sample of the dataset. Their labels still decide which records this release includes.`,
    "",
  ];
}

function validity(release: ReleaseSummary): string {
  return release.validity.campaigns.length ? release.validity.campaigns.join(", ") : "(none)";
}

/** Which harness profiles and dataset environment versions the verification runs used (releases cut before they were kept say nothing). */
function environmentLines(sandbox: ReleaseDisclosure["sandbox"]): string[] {
  const lines: string[] = [];
  const profiles = Object.entries(sandbox.harness ?? {});
  if (profiles.length)
    lines.push(
      `- **Harness**: ${profiles.map(([language, profile]) => `${languageName(language)} ran with ${profile}`).join(", ")}; the other languages with AutoCodeBench's rules.`,
    );
  const used = (sandbox.environments ?? []).filter((row) => row.version !== null);
  if (used.length)
    lines.push(
      `- **Dataset environment**: ${used.map((row) => `version ${row.version} (${row.declared ?? "its declaration is gone"}) in ${plural(row.runs, "run")}`).join("; ")}${
        (sandbox.environments ?? []).some((row) => row.version === null)
          ? `; ${plural(sandbox.environments!.find((row) => row.version === null)!.runs, "run")} with none`
          : ""
      }.`,
    );
  return lines;
}
