import { AgreementTable } from "@/components/agreement/agreement-table";
import { CountFreshness } from "@/components/agreement/count-freshness";
import { AnnotatorTable, PairwiseKappaMatrix } from "@/components/agreement/annotator-table";
import { CriticConfusion, ExecutionConfusion } from "@/components/agreement/critic-confusion";
import { CriticRulesTable } from "@/components/agreement/critic-rules-table";
import { RevealTable } from "@/components/agreement/reveal-table";
import { SignalTrustTable } from "@/components/agreement/signal-trust-table";
import { Card, PageHeader } from "@/components/ui/primitives";
import { languageName } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { readCampaignAgreement } from "@/lib/server/review/agreement";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { listCategories } from "@/lib/server/campaigns/list-categories";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Agreement" };

export default async function AgreementPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("reports:export", `/campaigns/${id}/agreement`);
  const [campaign, agreement, categories] = await orNotFound(
    Promise.all([
      getCampaign({ actor, campaignId: id }),
      readCampaignAgreement({ actor, campaignId: id }),
      listCategories({ actor, campaignId: id }),
    ]),
  );
  const categoryLabels = Object.fromEntries(categories.map((category) => [category.key, category.label]));

  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Campaigns", href: "/campaigns" },
          { label: campaign.name, href: `/campaigns/${id}` },
        ]}
      />
      <PageHeader
        title="Agreement"
        description={`How far annotators, reviewers and the critic agree in ${campaign.name} (${campaign.finalRule} rule). "—" marks a figure the data cannot define; hover it for why.`}
      />
      <div className="space-y-6">
        <CountFreshness countedAt={agreement.countedAt} changedSince={agreement.changedSince} />
        <Card title="Annotators with each other">
          <div className="overflow-x-auto">
            <AgreementTable overall={agreement.overall} byLanguage={agreement.byLanguage} />
          </div>
        </Card>
        <Card title="Final labels vs the critic">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <CriticConfusion scope="Overall" comparison={agreement.humanVsCritic} />
            {Object.entries(agreement.humanVsCriticByLanguage).map(([language, comparison]) => (
              <CriticConfusion key={language} scope={languageName(language)} comparison={comparison} />
            ))}
          </div>
        </Card>
        <Card title="Final labels vs execution">
          <p className="mb-3 text-sm text-slate-600">
            Whether the canonical solution passes its own tests. Records not run, or whose language cannot run here, are
            left out.
          </p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <ExecutionConfusion scope="Overall" comparison={agreement.humanVsExecution} />
            {Object.entries(agreement.humanVsExecutionByLanguage).map(([language, comparison]) => (
              <ExecutionConfusion key={language} scope={languageName(language)} comparison={comparison} />
            ))}
          </div>
        </Card>
        {agreement.blindReveal ? (
          <Card title="Before and after the critic was shown">
            <p className="mb-3 text-sm text-slate-600">
              This campaign is blind: each annotator&apos;s first verdict was given before they saw the critic. A
              verdict that changed afterwards is a flip; agreement with the critic rising after the reveal is the
              anchoring effect.
            </p>
            <div className="overflow-x-auto">
              <RevealTable reveal={agreement.blindReveal} signal="critic" />
            </div>
          </Card>
        ) : null}
        {agreement.executionReveal ? (
          <Card title="Before and after the execution was shown">
            <p className="mb-3 text-sm text-slate-600">
              This campaign showed nothing before the first label, so the execution (whether the record passes its own
              tests) was hidden too. Agreement with it rising after the reveal is anchoring on the execution.
            </p>
            <div className="overflow-x-auto">
              <RevealTable reveal={agreement.executionReveal} signal="execution" />
            </div>
          </Card>
        ) : null}
        <Card title="How far each signal can be trusted">
          <p className="mb-2 text-xs text-slate-500">
            Each automatic signal&apos;s &quot;invalid&quot; against people&apos;s final labels, on the items where both
            are known (n). Precision: of the records it flags, the share people found invalid; recall: of the records
            people found invalid, the share it flags; brackets hold Wilson 95% intervals. This is what tells whether a
            signal may filter records people never see.
          </p>
          {campaign.sampling === "suspicion" ? (
            <p role="note" className="mb-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
              This campaign&apos;s items were picked because these signals pointed at them, so the precision below is
              higher and the recall says nothing of the records nobody picked. Read these figures on a randomly sampled
              campaign before filtering with a signal.
            </p>
          ) : null}
          {agreement.signals.length === 0 ? (
            <p className="text-sm text-slate-500">No item has both a final label and a signal yet.</p>
          ) : (
            <SignalTrustTable rows={agreement.signals} />
          )}
        </Card>
        <Card title="Critic rules vs the humans' categories">
          <div className="overflow-x-auto">
            <CriticRulesTable rules={agreement.criticRules} categoryLabels={categoryLabels} />
          </div>
        </Card>
        <Card title="Annotators">
          <div className="space-y-6">
            <div className="overflow-x-auto">
              <AnnotatorTable annotators={agreement.annotators} />
            </div>
            <div>
              <h3 className="mb-2 text-sm font-medium text-slate-700">Pairwise Cohen&apos;s κ</h3>
              <PairwiseKappaMatrix annotators={agreement.annotators} />
            </div>
          </div>
        </Card>
      </div>
    </>
  );
}
