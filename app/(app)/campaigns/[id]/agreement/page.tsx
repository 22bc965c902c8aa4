
import { AgreementTable } from "@/components/agreement/agreement-table";
import { AnnotatorTable, PairwiseKappaMatrix } from "@/components/agreement/annotator-table";
import { CriticConfusion } from "@/components/agreement/critic-confusion";
import { CriticRulesTable } from "@/components/agreement/critic-rules-table";
import { Card, PageHeader } from "@/components/ui/primitives";
import { LANGUAGE_LABELS, type Language } from "@/lib/records/languages";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { getCampaignAgreement } from "@/lib/server/db/agreement";
import { getCampaign, listCategories } from "@/lib/server/db/campaigns";
import { orNotFound } from "@/lib/server/not-found";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Agreement" };

export default async function AgreementPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageActor("reports:export", `/campaigns/${id}/agreement`);
  const [campaign, agreement, categories] = await orNotFound(Promise.all([getCampaign({ actor, campaignId: id }), getCampaignAgreement({ actor, campaignId: id }), listCategories({ campaignId: id })]));
  const categoryLabels = Object.fromEntries(categories.map((category) => [category.key, category.label]));

  return (
    <>
      <Breadcrumbs items={[{ label: "Campaigns", href: "/campaigns" }, { label: campaign.name, href: `/campaigns/${id}` }]} />
      <PageHeader title="Agreement" description={`How far annotators, reviewers and the critic agree in ${campaign.name} (${campaign.finalRule} rule). "—" marks a figure the data cannot define; hover it for why.`} />
      <div className="space-y-6">
        <Card title="Annotators with each other">
          <div className="overflow-x-auto">
            <AgreementTable overall={agreement.overall} byLanguage={agreement.byLanguage} />
          </div>
        </Card>
        <Card title="Final labels vs the critic">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <CriticConfusion scope="Overall" comparison={agreement.humanVsCritic} />
            {Object.entries(agreement.humanVsCriticByLanguage).map(([language, comparison]) => (
              <CriticConfusion key={language} scope={LANGUAGE_LABELS[language as Language] ?? language} comparison={comparison} />
            ))}
          </div>
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
