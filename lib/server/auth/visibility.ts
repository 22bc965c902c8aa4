import "server-only";

import { Prisma } from "@/lib/generated/prisma/client";
import { EVIDENCE_HIDING, EXECUTION_HIDING, shownBeforeFirstLabel, visibilityName } from "@/lib/evidence/visibility";
import type { PreLabelVisibility } from "@/lib/generated/prisma/enums";
import { type Actor, isSystemActor, type SystemActor } from "@/lib/server/auth/permissions";

import { prisma } from "@/lib/server/db/client";

// Who sees what of a record. Every read of records and of critic output goes through these rules,
// so a page, a REST route, an export and the CLI can never disagree. Verdicts of critics run from
// Verity (lib/server/critics) are not a record's critic: every read of them needs critics:read, which
// no annotator holds, so blind mode never has to hide them.

type Viewer = Pick<Actor, "id" | "role" | "languages">;
type Db = Prisma.TransactionClient;

/** Annotators see only the work they are given; reviewers and admins see everything. */
function isAnnotator(actor: Viewer): boolean {
  return actor.role === "ANNOTATOR";
}

/**
 * Campaigns the actor sees: all for reviewers and admins, those sharing a language for annotators;
 * none marked for deletion (a job removes it: lib/server/campaigns/remove-campaign.ts), for anybody.
 */
export function visibleCampaignWhere(actor: Viewer): Prisma.CampaignWhereInput {
  const notDeleting: Prisma.CampaignWhereInput = { status: { not: "DELETING" } };
  return isAnnotator(actor) ? { ...notDeleting, languages: { hasSome: actor.languages } } : notDeleting;
}

/** Datasets the actor sees: for annotators, those with a campaign in one of their languages. */
export function visibleDatasetWhere(actor: Viewer): Prisma.DatasetWhereInput {
  return isAnnotator(actor) ? { campaigns: { some: visibleCampaignWhere(actor) } } : {};
}

/** Records the actor sees: those of the datasets they see. */
export function visibleRecordWhere(actor: Viewer): Prisma.RecordWhereInput {
  return isAnnotator(actor) ? { dataset: visibleDatasetWhere(actor) } : {};
}

/**
 * Whether the actor may read gold answers (a record's known verdict). Annotators never: gold items
 * measure them, so nothing they can reach may tell a gold record from another. The scope
 * gold:read says the same; this rule also keeps the gold flag out of every annotator-facing read.
 */
export function canSeeGoldAnswers(actor: Viewer): boolean {
  return !isAnnotator(actor);
}

/**
 * The blind-campaign items that hide their record's critic from the actor. A label given while
 * the critic was hidden on every read is stored as the pre-reveal label, so:
 * - an annotator may not see it for any blind item in their languages they have not yet labelled
 *   or skipped (they could claim it later, and must not have read the verdict first);
 * - a reviewer or admin sees critics (reviewing needs them) except while they hold a blind item
 *   they have not labelled: an active lease, or an expired one they could still submit on.
 */
export function criticHidingItemWhere(actor: Viewer): Prisma.CampaignItemWhereInput {
  return { campaign: { blind: true }, ...heldBackItemWhere(actor) };
}

/**
 * The items whose campaign's hiding still applies to the actor, whatever it hides: an annotator's
 * items in their languages they have not labelled or skipped, a reviewer's or admin's items they
 * hold unlabelled (an active lease, or an expired one they could still submit on). The critic's rule
 * (criticHidingItemWhere) and the evidence's and execution's (hidingItemWhere) differ only in the campaign.
 */
function heldBackItemWhere(actor: Viewer): Prisma.CampaignItemWhereInput {
  if (isAnnotator(actor)) {
    return {
      language: { in: actor.languages },
      assignments: { none: { userId: actor.id, status: { in: ["SUBMITTED", "SKIPPED"] } } },
    };
  }
  return { assignments: { some: { userId: actor.id, status: { in: ["ACTIVE", "EXPIRED"] } } } };
}

/**
 * Whether a first label the actor gives on a blind item is truly pre-reveal: only annotators are kept
 * from a blind item's critic before they claim it; a reviewer or admin may have read it earlier.
 */
export function isFirstLabelPreReveal(actor: Viewer): boolean {
  return isAnnotator(actor);
}

/**
 * A blind campaign's gold records are part of it, as its sample is: any of them may be served to an
 * annotator as a gold item, which has no campaign item until served. So for an annotator they hide
 * their critic exactly as the campaign's sample items do: a gold record of the campaign's dataset in
 * a language the campaign and the annotator share is hidden until they labelled or skipped it in
 * that campaign. Outside those languages (or for a campaign that is not blind) a gold record follows
 * the rule of any other record. The gold share does not matter, so changing it shows nothing.
 * Null when nothing is hidden this way (reviewers and admins, who see gold answers anyway).
 */
async function goldPoolHiddenWhere(
  actor: Viewer,
  { db = prisma(), exceptCampaignId }: { db?: Db; exceptCampaignId?: string } = {},
): Promise<Prisma.RecordWhereInput | null> {
  if (!isAnnotator(actor)) return null;
  const campaigns = await db.campaign.findMany({
    where: {
      blind: true,
      languages: { hasSome: actor.languages },
      ...(exceptCampaignId ? { id: { not: exceptCampaignId } } : {}),
    },
    select: { id: true, datasetId: true, languages: true },
  });
  return campaigns.length === 0 ? null : goldHiddenByWhere(actor, campaigns);
}

type HidingCampaign = { id: string; datasetId: string; languages: string[] };

/**
 * The gold records the given campaigns (each hiding something from the annotator) hide as their
 * sample items do: of the campaign's dataset, in a language it shares with the annotator, and not yet
 * labelled or skipped by them there.
 */
function goldHiddenByWhere(actor: Viewer, campaigns: HidingCampaign[]): Prisma.RecordWhereInput {
  return {
    gold: { isNot: null },
    OR: campaigns.map((campaign) => ({
      datasetId: campaign.datasetId,
      language: { in: campaign.languages.filter((language) => actor.languages.includes(language)) },
      NOT: {
        campaignItems: {
          some: {
            campaignId: campaign.id,
            assignments: { some: { userId: actor.id, status: { in: ["SUBMITTED" as const, "SKIPPED" as const] } } },
          },
        },
      },
    })),
  };
}

/** Records whose critic is hidden from the actor, for filters: a critic filter must leave them out. */
export async function criticHiddenRecordWhere(actor: Viewer): Promise<Prisma.RecordWhereInput> {
  const byItem: Prisma.RecordWhereInput = { campaignItems: { some: criticHidingItemWhere(actor) } };
  const gold = await goldPoolHiddenWhere(actor);
  return gold ? { OR: [byItem, gold] } : byItem;
}

/**
 * Of the given records (or of a campaign's records), those whose critic the actor may not see,
 * in one query. The system actor (operator CLI) sees everything.
 */
export async function criticHiddenRecordIds({
  actor,
  recordIds,
  campaignId,
  db = prisma(),
}: {
  actor: Viewer | SystemActor;
  recordIds?: number[];
  campaignId?: string;
  /** A transaction to read in (a submit deciding whether its label is pre-reveal). */
  db?: Db;
}): Promise<Set<number>> {
  if (isSystemActor(actor) || recordIds?.length === 0) return new Set();
  const among: Prisma.CampaignItemWhereInput = recordIds
    ? { recordId: { in: recordIds } }
    : { record: { campaignItems: { some: { campaignId } } } };
  const gold = await goldPoolHiddenWhere(actor, { db });
  const [rows, goldRows] = await Promise.all([
    db.campaignItem.findMany({
      where: { AND: [among, criticHidingItemWhere(actor)] },
      select: { recordId: true },
      distinct: ["recordId"],
    }),
    gold
      ? db.record.findMany({
          where: { AND: [recordIds ? { id: { in: recordIds } } : { campaignItems: { some: { campaignId } } }, gold] },
          select: { id: true },
        })
      : Promise.resolve([]),
  ]);
  return new Set([...rows.map((row) => row.recordId), ...goldRows.map((row) => row.id)]);
}

/**
 * Why the critic of a campaign item's record, hidden from the actor (criticHiddenRecordIds), is
 * hidden, for the workspace to say so: `this-campaign` when only the item's own (blind) campaign
 * hides it, so the first label here shows it; `another-campaign` when a blind campaign also holding
 * the record (its sample or its gold) hides it, so a label here does not.
 */
export async function whyCriticHidden({
  actor,
  recordId,
  campaignId,
}: {
  actor: Viewer;
  recordId: number;
  campaignId: string;
}): Promise<"this-campaign" | "another-campaign"> {
  const gold = await goldPoolHiddenWhere(actor, { exceptCampaignId: campaignId });
  const [elsewhere, goldElsewhere] = await Promise.all([
    prisma().campaignItem.findFirst({
      where: { AND: [{ recordId, campaignId: { not: campaignId } }, criticHidingItemWhere(actor)] },
      select: { id: true },
    }),
    gold ? prisma().record.findFirst({ where: { AND: [{ id: recordId }, gold] }, select: { id: true } }) : null,
  ]);
  return elsewhere || goldElsewhere ? "another-campaign" : "this-campaign";
}

/** A critic as the actor may see it: nothing at all when hidden. Pure. */
export function criticAsSeen<T>(critic: T | null, isHidden: boolean): T | null {
  return isHidden ? null : critic;
}

/**
 * The items whose campaign's visibility level is one of `levels` and that keep their record's
 * evidence of that kind from the actor for now, by the same rule as the critic (criticHidingItemWhere):
 * an annotator's items in their languages they have not labelled or skipped, a reviewer's or admin's
 * items they hold unlabelled.
 */
function hidingItemWhere(actor: Viewer, levels: readonly PreLabelVisibility[]): Prisma.CampaignItemWhereInput {
  return { campaign: { visibility: { in: [...levels] } }, ...heldBackItemWhere(actor) };
}

/**
 * Of the given records, those a campaign with one of the given levels hides from the actor, in one
 * query (and one for gold records, which hide it as their campaign's sample items do: see
 * goldPoolHiddenWhere). The system actor sees all.
 */
async function recordIdsHiddenBy(
  actor: Viewer | SystemActor,
  recordIds: number[],
  levels: readonly PreLabelVisibility[],
): Promise<Set<number>> {
  if (isSystemActor(actor) || recordIds.length === 0) return new Set();
  const [rows, goldRows] = await Promise.all([
    prisma().campaignItem.findMany({
      where: { recordId: { in: recordIds }, ...hidingItemWhere(actor, levels) },
      select: { recordId: true },
      distinct: ["recordId"],
    }),
    isAnnotator(actor) ? goldRecordsHiddenBy(actor, recordIds, levels) : Promise.resolve([]),
  ]);
  return new Set([...rows.map((row) => row.recordId), ...goldRows]);
}

/**
 * Records whose automatic evidence (mutation, flakiness, solvers) the actor may not see, for
 * filters: a flaky filter must leave them out. Campaigns showing less than "all but the critic"
 * hide it. (A gold record of such a campaign shows no flag in lists either; see evidenceHiddenRecordIds.)
 */
export function evidenceHiddenRecordWhere(actor: Viewer): Prisma.RecordWhereInput {
  return { campaignItems: { some: hidingItemWhere(actor, EVIDENCE_HIDING) } };
}

/**
 * For a reviewer or admin, the records of a dataset whose evidence or critic a campaign keeps from
 * them for now, each with what it keeps: by the rules of evidenceHiddenRecordWhere and
 * criticHiddenRecordWhere, that is the blind or evidence-hiding items they hold unlabelled (a
 * handful), so kept counts can leave them out. Null for an annotator, whose hidden records are every
 * item of such campaigns in their languages they have not labelled: their counts filter record by record.
 */
export async function heldHiddenRecords(
  actor: Viewer,
  datasetId: string,
): Promise<Map<number, { evidence: boolean; critic: boolean }> | null> {
  if (isAnnotator(actor)) return null;
  const inDataset: Prisma.CampaignItemWhereInput = { record: { datasetId } };
  const [evidence, critic] = await Promise.all([
    prisma().campaignItem.findMany({
      where: { AND: [inDataset, hidingItemWhere(actor, EVIDENCE_HIDING)] },
      select: { recordId: true },
      distinct: ["recordId"],
    }),
    prisma().campaignItem.findMany({
      where: { AND: [inDataset, criticHidingItemWhere(actor)] },
      select: { recordId: true },
      distinct: ["recordId"],
    }),
  ]);
  const hidden = new Map<number, { evidence: boolean; critic: boolean }>();
  for (const { recordId } of evidence) hidden.set(recordId, { evidence: true, critic: false });
  for (const { recordId } of critic) hidden.set(recordId, { evidence: hidden.has(recordId), critic: true });
  return hidden;
}

/** Of the given records, those whose automatic evidence the actor may not see yet. */
export async function evidenceHiddenRecordIds({
  actor,
  recordIds,
}: {
  actor: Viewer | SystemActor;
  recordIds: number[];
}): Promise<Set<number>> {
  return recordIdsHiddenBy(actor, recordIds, EVIDENCE_HIDING);
}

/**
 * Records whose execution (executable-valid, the verification outcome, the stored runs of the
 * canonical solution) the actor may not see, for filters: an executable or outcome filter must
 * leave them out. Only campaigns showing "nothing" hide it.
 */
export function executionHiddenRecordWhere(actor: Viewer): Prisma.RecordWhereInput {
  return { campaignItems: { some: hidingItemWhere(actor, EXECUTION_HIDING) } };
}

/** Of the given records, those whose execution the actor may not see yet (campaigns showing "nothing"). */
export async function executionHiddenRecordIds({
  actor,
  recordIds,
}: {
  actor: Viewer | SystemActor;
  recordIds: number[];
}): Promise<Set<number>> {
  return recordIdsHiddenBy(actor, recordIds, EXECUTION_HIDING);
}

export type HiddenRecordIds = { critic: Set<number>; execution: Set<number>; evidence: Set<number> };

/**
 * Of the given records, those whose critic, execution and evidence the actor may not see, by the
 * rules of criticHiddenRecordIds, executionHiddenRecordIds and evidenceHiddenRecordIds, for reads
 * that need all three (a record's page, the workspace, a claim): two queries where the three take
 * six, and more only for gold records while a campaign in the annotator's languages hides something.
 */
export async function hiddenRecordIds({
  actor,
  recordIds,
}: {
  actor: Viewer | SystemActor;
  recordIds: number[];
}): Promise<HiddenRecordIds> {
  const hidden: HiddenRecordIds = { critic: new Set(), execution: new Set(), evidence: new Set() };
  if (isSystemActor(actor) || recordIds.length === 0) return hidden;
  const hidesSomething = { OR: [{ blind: true }, { visibility: { in: [...EVIDENCE_HIDING, ...EXECUTION_HIDING] } }] };
  const [items, goldCampaigns] = await Promise.all([
    prisma().campaignItem.findMany({
      where: { recordId: { in: recordIds }, campaign: hidesSomething, ...heldBackItemWhere(actor) },
      select: { recordId: true, campaign: { select: { blind: true, visibility: true } } },
    }),
    isAnnotator(actor)
      ? prisma().campaign.findMany({
          where: { ...hidesSomething, languages: { hasSome: actor.languages } },
          select: { id: true, datasetId: true, languages: true, blind: true, visibility: true },
        })
      : Promise.resolve([]),
  ]);
  const kinds = [
    { ids: hidden.critic, hides: (campaign: { blind: boolean }) => campaign.blind },
    {
      ids: hidden.execution,
      hides: (campaign: { visibility: PreLabelVisibility }) => EXECUTION_HIDING.includes(campaign.visibility),
    },
    {
      ids: hidden.evidence,
      hides: (campaign: { visibility: PreLabelVisibility }) => EVIDENCE_HIDING.includes(campaign.visibility),
    },
  ];
  for (const { ids, hides } of kinds) {
    for (const item of items) if (hides(item.campaign)) ids.add(item.recordId);
  }
  await Promise.all(
    kinds.map(async ({ ids, hides }) => {
      const campaigns = goldCampaigns.filter(hides);
      if (campaigns.length === 0) return;
      const rows = await prisma().record.findMany({
        where: { id: { in: recordIds }, ...goldHiddenByWhere(actor, campaigns) },
        select: { id: true },
      });
      for (const row of rows) ids.add(row.id);
    }),
  );
  return hidden;
}

/** A record's execution columns as the actor may see them: all null while hidden. Pure. */
export function executionAsSeen<T extends { executableValid: boolean | null; verificationOutcome: string | null }>(
  record: T,
  isHidden: boolean,
): T {
  return isHidden ? { ...record, executableValid: null, verificationOutcome: null } : record;
}

/** Of the given gold records, those a campaign with one of the given levels hides from the annotator. */
async function goldRecordsHiddenBy(
  actor: Viewer,
  recordIds: number[],
  levels: readonly PreLabelVisibility[],
): Promise<number[]> {
  const campaigns = await prisma().campaign.findMany({
    where: { visibility: { in: [...levels] }, languages: { hasSome: actor.languages } },
    select: { id: true, datasetId: true, languages: true },
  });
  if (campaigns.length === 0) return [];
  const rows = await prisma().record.findMany({
    where: { id: { in: recordIds }, ...goldHiddenByWhere(actor, campaigns) },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * What every annotator of a campaign showing `level` is shown of a record before their first label,
 * as SQL conditions on the record's id, for what is computed once for all of them and which they can
 * read off (a suspicion campaign's order): the campaign's own level, and nothing another campaign
 * holding the record hides. Such a campaign hides the critic, the evidence or the execution from an
 * annotator of the record's language until they labelled it there (criticHidingItemWhere,
 * hidingItemWhere), and the campaign's annotators share that language.
 */
export function shownToEveryAnnotatorSql(
  level: PreLabelVisibility,
  recordId: Prisma.Sql,
): { critic: Prisma.Sql; evidence: Prisma.Sql; execution: Prisma.Sql } {
  const shown = shownBeforeFirstLabel(visibilityName(level));
  const noCampaignHidesIt = (hides: Prisma.Sql) => Prisma.sql`NOT EXISTS (
    SELECT 1 FROM "CampaignItem" hi JOIN "Campaign" hc ON hc.id = hi."campaignId"
    WHERE hi."recordId" = ${recordId} AND ${hides})`;
  const hidingLevel = (levels: readonly PreLabelVisibility[]) =>
    noCampaignHidesIt(Prisma.sql`hc.visibility::text = ANY(${[...levels]}::text[])`);
  return {
    critic: shown.critic ? noCampaignHidesIt(Prisma.sql`hc.blind`) : Prisma.sql`false`,
    evidence: shown.evidence ? hidingLevel(EVIDENCE_HIDING) : Prisma.sql`false`,
    execution: shown.execution ? hidingLevel(EXECUTION_HIDING) : Prisma.sql`false`,
  };
}

/**
 * Of the given records, those whose history hides other people's judgements from the actor: a
 * repair's author, reason and categories, a check's verdict, note and checker (a rejected repair is
 * such a verdict). They anchor a first label as much as the critic does, so they are hidden exactly
 * while the critic is (criticHiddenRecordIds): before the actor's first label on an item of a blind
 * campaign, whatever it shows besides ("nothing" included).
 */
export async function othersJudgementsHiddenRecordIds({
  actor,
  recordIds,
}: {
  actor: Viewer | SystemActor;
  recordIds: number[];
}): Promise<Set<number>> {
  return criticHiddenRecordIds({ actor, recordIds });
}

/**
 * Whether a record revision's rationale (its author's reason, the categories it fixes, who wrote it)
 * is hidden from the viewer. While a repair waits for its blind second check only its author sees
 * why it was made, whoever else looks (reviewers and admins too): any of them may be its checker,
 * and the check must judge the revised record on its own. Once checked, it is shown to all who see
 * the record. Pure.
 */
export function isRevisionRationaleHidden(
  viewer: Pick<Actor, "id" | "role"> | SystemActor,
  revision: { status: string; authorId: string | null },
): boolean {
  if (revision.status !== "PROPOSED") return false;
  return isSystemActor(viewer) || viewer.id !== revision.authorId;
}
