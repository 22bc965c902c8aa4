import { describe, expect, it } from "vitest";

import type { ReportRow } from "@/lib/reports/format";

import { releaseCard, sizeCategory } from "./card";
import type { ReleaseSummary } from "./types";

const row = (valid: number, resolved: number): ReportRow => ({
  sampled: resolved,
  labelled: resolved,
  resolved,
  valid,
  validity: resolved ? valid / resolved : null,
  ci: resolved ? [0.1, 0.9] : null,
  criticPass: null,
  criticN: 0,
  executableValid: null,
  executableN: 0,
  executableUnavailable: 0,
  humanCriticKappa: null,
  alpha: null,
  topCategories: [],
});

function summary(overrides: Partial<ReleaseSummary> = {}): ReleaseSummary {
  return {
    name: "v1",
    dataset: 'acb "py" set',
    createdAt: "2026-12-01T17:00:00.000Z",
    records: 2,
    excluded: 1,
    revised: 1,
    byLanguage: { python: { records: 2, excluded: 1, revised: 1 } },
    rule: { name: "final-label-valid", requireExecutable: false, description: "Final label valid." },
    validity: {
      byLanguage: { python: row(2, 3) },
      pooled: row(2, 3),
      macro: { ...row(2, 3), ci: null },
      campaigns: ["c1"],
      crossCampaignRule: "Strongest label wins.",
    },
    disclosure: {
      annotatorsPerItem: { mean: 2, min: 2, max: 2, items: 3 },
      campaigns: [{ name: "c1", blind: true, goldShare: 0.1, finalRule: "consensus", overlap: 2 }],
      sandbox: {
        backends: "local",
        toolchains: [{ language: "python", backend: "local", toolchain: "Python 3.11.2", runs: 6 }],
        reference: [{ language: "python", label: "Python 3.11" }],
      },
      revisions: { accepted: 1, rejected: 0, waiting: 0 },
    },
    ...overrides,
  };
}

describe("sizeCategory", () => {
  it("names Hugging Face's size buckets", () => {
    expect([0, 999, 1000, 9999, 10_000, 100_000, 999_999, 1_000_000].map(sizeCategory)).toEqual([
      "n<1K",
      "n<1K",
      "1K<n<10K",
      "1K<n<10K",
      "10K<n<100K",
      "100K<n<1M",
      "100K<n<1M",
      "1M<n<10M",
    ]);
  });
});

describe("releaseCard", () => {
  it("says which harness profiles and dataset environment versions the verification runs used", () => {
    const base = summary();
    const card = releaseCard({
      ...base,
      disclosure: {
        ...base.disclosure,
        sandbox: {
          ...base.disclosure.sandbox,
          harness: { go: "go-testify" },
          environments: [
            { version: null, runs: 4, declared: null },
            { version: 2, runs: 6, declared: "go: github.com/stretchr/testify@v1.8.0" },
          ],
        },
      },
    });
    expect(card).toContain("- **Harness**: Go ran with go-testify; the other languages with AutoCodeBench's rules.");
    expect(card).toContain(
      "- **Dataset environment**: version 2 (go: github.com/stretchr/testify@v1.8.0) in 6 runs; 4 runs with none.",
    );
    expect(releaseCard(summary())).not.toContain("Dataset environment");
  });

  it("opens with YAML front matter naming both data files as configs and the size category", () => {
    const card = releaseCard(summary());
    const [, yaml, body] = card.split(/^---$/m);
    expect(yaml).toContain(
      "configs:\n  - config_name: default\n    data_files:\n      - split: test\n        path: data.jsonl",
    );
    expect(yaml).toContain("path: excluded.jsonl");
    expect(yaml).toContain("size_categories:\n  - n<1K");
    // The dataset's quotes stay inside one YAML scalar.
    expect(yaml).toContain('pretty_name: "acb \\"py\\" set v1"');
    expect(body).toContain('# acb "py" set — release v1');
  });

  it("says how many records are revised, shows the validity table and discloses the method", () => {
    const card = releaseCard(summary());
    expect(card).toContain("1 record is included at a revision after its import");
    expect(card).toContain("| Python | 2 | 1 | 1 |");
    expect(card).toContain("| Python | 66.7% [10.0, 90.0] | n = 3 |");
    expect(card).toContain("every campaign was blind");
    expect(card).toContain("c1 10.0%");
    expect(card).toContain("| Python | local | Python 3.11.2 | 6 | Python 3.11 |");
    expect(card).toContain("2.00 on average (min 2, max 2)");
  });

  it("speaks of one repaired record in the singular and of several in the plural", () => {
    expect(releaseCard(summary())).toContain("Its line carries `verification.revision` > 1");
    const two = releaseCard(summary({ revised: 2 }));
    expect(two).toContain("2 records are included at a revision after their import");
    expect(two).toContain("Their lines carry");
    expect(releaseCard(summary({ revised: 0 }))).toContain("No record is included at a revision after its import.");
  });

  it("says whether the critic was seen from what each label's author was shown, when the release counted it", () => {
    const disclosure = summary().disclosure;
    const withLabels = (criticHidden: number, criticShown: number) =>
      releaseCard(summary({ disclosure: { ...disclosure, labels: { criticHidden, criticShown } } }));
    expect(withLabels(5, 0)).toContain("**Saw the critic before labelling**: no — each of the 5 labels");
    expect(withLabels(0, 5)).toContain("**Saw the critic before labelling**: yes — ");
    expect(withLabels(3, 1)).toContain(
      "**Saw the critic before labelling**: for 1 of 4 labels; the other 3 were given",
    );
  });

  it("is the same text for the same release", () => {
    expect(releaseCard(summary())).toBe(releaseCard(summary()));
  });
});
