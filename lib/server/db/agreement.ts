import "server-only";

import { annotatorStatistics, criticRuleMatches, humanAgreement, humanVsCritic } from "@/lib/metrics/campaign-agreement";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { getCampaign } from "./campaigns";
import { prisma } from "./client";
import { computeOutcomes } from "./review";

/**
 * Agreement figures of a campaign: human–human overall and per language, the humans' final label
 * against the critic, per critic rule precision/recall against the mapped categories, and per
 * annotator statistics. Undefined metrics are null. Scope: reports:export.
 */
export async function getCampaignAgreement({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "reports:export");
  await getCampaign({ actor, campaignId });
  const [{ outcomes }, categories] = await Promise.all([
    computeOutcomes(campaignId),
    prisma().errorCategory.findMany({ where: { campaignId }, orderBy: { position: "asc" }, select: { key: true, criticRule: true } }),
  ]);
  const languages = [...new Set(outcomes.map((item) => item.language))].sort();
  const users = await prisma().user.findMany({ where: { id: { in: [...new Set(outcomes.flatMap((item) => item.labels.map((label) => label.userId)))] } }, select: { id: true, email: true, name: true } });
  const byLanguage = Object.fromEntries(languages.map((language) => [language, humanAgreement(outcomes.filter((item) => item.language === language))]));
  const criticByLanguage = Object.fromEntries(languages.map((language) => [language, humanVsCritic(outcomes.filter((item) => item.language === language))]));
  return {
    overall: humanAgreement(outcomes),
    byLanguage,
    humanVsCritic: humanVsCritic(outcomes),
    humanVsCriticByLanguage: criticByLanguage,
    criticRules: criticRuleMatches(outcomes, categories),
    annotators: annotatorStatistics(outcomes).map((stats) => {
      const user = users.find((candidate) => candidate.id === stats.userId);
      return { ...stats, email: user?.email ?? "(deleted)", name: user?.name ?? null };
    }),
  };
}
