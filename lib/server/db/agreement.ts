import "server-only";

import {
  annotatorStatistics,
  criticRuleMatches,
  humanAgreement,
  humanVsCritic,
  humanVsExecution,
} from "@/lib/metrics/campaign-agreement";
import { type BlindLabel, revealAnalysis } from "@/lib/metrics/reveal";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { getCampaign } from "./campaigns";
import { prisma } from "./client";
import { campaignGoldAccuracy } from "./gold";
import { computeOutcomes } from "./review";

/** A blind campaign's labels that kept a pre-reveal verdict, with the critic's verdict on their record. */
async function loadBlindLabels(campaignId: string): Promise<BlindLabel[]> {
  const rows = await prisma().annotation.findMany({
    where: { item: { campaignId, gold: false }, preRevealValid: { not: null } },
    select: {
      userId: true,
      valid: true,
      preRevealValid: true,
      item: { select: { language: true, record: { select: { critic: { select: { overallPass: true } } } } } },
    },
  });
  return rows.map((row) => ({
    userId: row.userId,
    language: row.item.language,
    before: row.preRevealValid!,
    after: row.valid,
    criticPass: row.item.record.critic?.overallPass ?? null,
  }));
}

/**
 * Agreement figures of a campaign: human–human overall and per language, the humans' final label
 * against the critic and against execution, per critic rule precision/recall against the mapped
 * categories, per annotator statistics (with gold accuracy), and (blind campaigns only, else null) how the critic's
 * reveal moved verdicts. Undefined metrics are null. Scope: reports:export.
 */
export async function getCampaignAgreement({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "reports:export");
  const campaign = await getCampaign({ actor, campaignId });
  const [{ outcomes }, categories, blindLabels, goldAccuracy] = await Promise.all([
    computeOutcomes(campaignId),
    prisma().errorCategory.findMany({
      where: { campaignId },
      orderBy: { position: "asc" },
      select: { key: true, criticRule: true },
    }),
    campaign.blind ? loadBlindLabels(campaignId) : Promise.resolve(null),
    campaignGoldAccuracy(campaignId),
  ]);
  // Gold accuracy per annotator (their gold labels are not among the outcomes), per language too.
  const goldOf = (userId: string) => {
    const byLanguage = goldAccuracy
      .filter((entry) => entry.userId === userId)
      .map(({ language, n, correct }) => ({ language, n, correct }));
    return {
      n: byLanguage.reduce((sum, entry) => sum + entry.n, 0),
      correct: byLanguage.reduce((sum, entry) => sum + entry.correct, 0),
      byLanguage,
    };
  };
  const languages = [...new Set(outcomes.map((item) => item.language))].sort();
  const userIds = new Set([
    ...outcomes.flatMap((item) => item.labels.map((label) => label.userId)),
    ...(blindLabels ?? []).map((label) => label.userId),
  ]);
  const users = await prisma().user.findMany({
    where: { id: { in: [...userIds] } },
    select: { id: true, email: true, name: true },
  });
  const named = <T extends { userId: string }>(stats: T) => {
    const user = users.find((candidate) => candidate.id === stats.userId);
    return { ...stats, email: user?.email ?? "(deleted)", name: user?.name ?? null };
  };
  const reveal = blindLabels ? revealAnalysis(blindLabels) : null;
  const perLanguage = <T>(figure: (items: typeof outcomes) => T) =>
    Object.fromEntries(
      languages.map((language) => [language, figure(outcomes.filter((item) => item.language === language))]),
    );
  return {
    overall: humanAgreement(outcomes),
    byLanguage: perLanguage(humanAgreement),
    humanVsCritic: humanVsCritic(outcomes),
    humanVsCriticByLanguage: perLanguage(humanVsCritic),
    humanVsExecution: humanVsExecution(outcomes),
    humanVsExecutionByLanguage: perLanguage(humanVsExecution),
    criticRules: criticRuleMatches(outcomes, categories),
    annotators: annotatorStatistics(outcomes).map((stats) => ({ ...named(stats), gold: goldOf(stats.userId) })),
    blindReveal: reveal ? { ...reveal, byAnnotator: reveal.byAnnotator.map(named) } : null,
  };
}
