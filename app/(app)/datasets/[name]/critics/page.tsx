import Link from "next/link";

import { CalibrationRanking, VersionBreakdown } from "@/components/critics/calibration-view";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { Card, PageHeader } from "@/components/ui/primitives";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getDatasetCriticCalibration } from "@/lib/server/critics/calibration";
import { pathSegment } from "@/lib/server/http";
import { orNotFound } from "@/lib/server/not-found";
import { countOf } from "@/lib/format/count";

export const metadata = { title: "Which critic to trust" };
export const dynamic = "force-dynamic";

export default async function DatasetCriticsPage({ params }: { params: Promise<{ name: string }> }) {
  const name = pathSegment((await params).name);
  const actor = await requirePageActor("critics:read", `/datasets/${encodeURIComponent(name)}/critics`);
  const calibration = await orNotFound(getDatasetCriticCalibration({ actor, datasetName: name }));
  const categoryLabels = Object.fromEntries(DEFAULT_CATEGORIES.map((category) => [category.key, category.label]));
  const { blind, open } = calibration.provenance;
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Datasets", href: "/datasets" },
          { label: name, href: `/datasets/${encodeURIComponent(name)}` },
          { label: "Critics" },
        ]}
      />
      <PageHeader
        title="Which critic to trust"
        description={`Every critic version against people's final labels on ${countOf(calibration.items, "item")} of this dataset's campaigns (${blind} labelled with the critic hidden from every annotator, ${open} with it shown to at least one). Positive class: invalid.`}
        actions={
          <Link href="/critics" className="text-sm text-indigo-700 hover:underline">
            Critics and runs →
          </Link>
        }
      />
      <div className="space-y-6">
        <Card title="Ranking">
          <CalibrationRanking calibration={calibration} />
          <p className="mt-3 text-xs text-slate-500">
            Campaign items are a seeded random sample per language (gold items never count), so these figures estimate
            the critic on the dataset. Where an annotator saw the imported critic before labelling, it pulls them
            towards it: those figures are anchored. &quot;Blind&quot; counts what people were actually shown: labels
            given while the critic was hidden from their author (blind campaigns, and open campaigns over records a
            blind campaign also holds), which give the unanchored comparison. Run critics are never shown to annotators.
            With a small n the Wilson intervals are wide; read the interval, not the point.
          </p>
        </Card>
        {calibration.versions.map((version) => (
          <VersionBreakdown key={version.versionId} version={version} categoryLabels={categoryLabels} />
        ))}
      </div>
    </>
  );
}
